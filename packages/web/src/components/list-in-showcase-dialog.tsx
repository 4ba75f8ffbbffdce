import type { Listing } from '@wolfpack/core';
import { CircleCheck, ImagePlus, LoaderCircle, Store, TriangleAlert, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { describeRequestFailure } from '../api/client';
import { useCreateListing, useListingDraft, useUpdateListing } from '../api/showcase';
import { toast } from '../hooks/use-toast';
import { cn } from '../lib/cn';
import {
  checkListingForm,
  EMPTY_LISTING_FORM,
  formFromDraft,
  formFromListing,
  lengthProblem,
  serverFieldProblem,
  type FieldName,
  type ListingFormValues,
} from '../lib/showcase-listing-form';
import { checkCoverFile } from '../lib/cover-file';
import { Button, buttonClass } from './button';
import { InputField } from './input-field';
import { Modal, ModalActions } from './modal';

/** List a project (create) or change a listing (edit). */
export type ListingDialogTarget = { kind: 'create'; projectId: string } | { kind: 'edit'; listing: Listing };

export interface ListInShowcaseDialogProps {
  target: ListingDialogTarget | null;
  onClose: () => void;
}

/**
 * "List in Showcase": the form starts from the server's draft (title, summary, detected
 * tech stack), then POST /api/listings; or, for an existing listing, PUT. A refusal shows inline
 * and keeps everything typed.
 */
export function ListInShowcaseDialog({ target, onClose }: ListInShowcaseDialogProps) {
  const [created, setCreated] = useState<Listing | null>(null);
  const [busy, setBusy] = useState(false);
  const key = target === null ? 'none' : target.kind === 'create' ? `p:${target.projectId}` : `l:${target.listing.id}`;
  useEffect(() => setCreated(null), [key]);
  const editing = target?.kind === 'edit';
  return (
    <Modal
      open={target !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      busy={busy}
      icon={created ? <CircleCheck className="h-5 w-5" aria-hidden /> : <Store className="h-5 w-5" aria-hidden />}
      title={created ? 'Listed in the Showcase' : editing ? 'Edit listing' : 'List in Showcase'}
      description={
        created
          ? 'Your project is in the Community Showcase. Its files are the ones it has now.'
          : editing
            ? 'Change how the listing reads; its files stay as they were when you listed it.'
            : 'Share this project with the community, free or for a price. The listing keeps a copy of the files as they are now.'
      }
      widthClass="max-w-xl"
      testId="list-in-showcase-dialog"
    >
      {target === null ? null : created ? (
        <div className="mt-5 flex flex-col gap-4" data-testid="listing-created">
          <p className="text-sm">
            <span className="font-medium">{created.title}</span> is live.
          </p>
          <ModalActions>
            <Button variant="outline" onClick={onClose}>
              Close
            </Button>
            <Link to={`/showcase/${encodeURIComponent(created.id)}`} className={buttonClass('primary', 'md')} onClick={onClose} data-testid="view-listing">
              View listing
            </Link>
          </ModalActions>
        </div>
      ) : (
        <ListingForm key={key} target={target} onBusy={setBusy} onCreated={setCreated} onClose={onClose} />
      )}
    </Modal>
  );
}

interface ListingFormProps {
  target: ListingDialogTarget;
  onBusy: (busy: boolean) => void;
  onCreated: (listing: Listing) => void;
  onClose: () => void;
}

function ListingForm({ target, onBusy, onCreated, onClose }: ListingFormProps) {
  const create = useCreateListing();
  const update = useUpdateListing();
  const draft = useListingDraft(target.kind === 'create' ? target.projectId : '', target.kind === 'create');
  const [values, setValues] = useState<ListingFormValues>(() => (target.kind === 'edit' ? formFromListing(target.listing) : EMPTY_LISTING_FORM));
  const [errors, setErrors] = useState<Partial<Record<FieldName | 'cover', string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  // The draft arrives after the dialog opened: fill the form then, unless the user already typed.
  const touched = useRef(false);
  useEffect(() => {
    if (draft.data && !touched.current) setValues(formFromDraft(draft.data));
  }, [draft.data]);
  const pending = create.isPending || update.isPending;
  useEffect(() => onBusy(pending), [pending, onBusy]);

  const edit = (patch: Partial<ListingFormValues>) => {
    touched.current = true;
    setValues((current) => ({ ...current, ...patch }));
  };

  /** The latest cover chosen: a slower check of an earlier one must not win over it. */
  const choosing = useRef(0);
  async function chooseCover(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const turn = ++choosing.current;
    const checked = await checkCoverFile(file);
    if (turn !== choosing.current) return;
    // A refused file takes the place of the cover before it: what shows is never a broken image.
    if (!checked.ok) {
      edit({ coverImage: null });
      setErrors((current) => ({ ...current, cover: checked.problem }));
      return;
    }
    setErrors((current) => ({ ...current, cover: undefined }));
    edit({ coverImage: checked.dataUrl });
  }

  /** Title and summary are checked as they are typed or pasted: too long is said at once, nothing is cut. */
  function editText(field: 'title' | 'summary', text: string) {
    edit({ [field]: text });
    setErrors((current) => ({ ...current, [field]: lengthProblem(field, text) }));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkListingForm(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setFailure(null);
    try {
      if (target.kind === 'create') {
        const listing = await create.mutateAsync({ projectId: target.projectId, body: checked.body });
        toast({ title: 'Listed in Showcase', description: `"${listing.title}" is now in the Community Showcase.` });
        onCreated(listing);
      } else {
        await update.mutateAsync({ id: target.listing.id, body: checked.body });
        toast({ title: 'Listing updated', description: 'Your changes are live.' });
        onClose();
      }
    } catch (error) {
      // A cover the server could not decode is said under the cover, with what to send instead.
      const coverProblem = serverFieldProblem(error, 'coverImage');
      if (coverProblem !== undefined) setErrors({ cover: coverProblem });
      else setFailure(describeRequestFailure(error, { failed: 'The listing could not be saved. Try again in a moment.', exception: 'Check your connection and try again.' }));
    }
  }

  const commercial = values.visibility === 'commercial';
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="mt-5 flex flex-col gap-4" aria-busy={pending} data-testid="listing-form">
      {draft.isFetching && !touched.current ? (
        <p className="flex items-center gap-2 text-sm text-zinc-500" role="status" data-testid="listing-draft-loading">
          <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
          Reading the project…
        </p>
      ) : draft.isError ? (
        <Alert testId="listing-draft-error">
          {describeRequestFailure(draft.error, { failed: 'The project could not be read for listing.', exception: 'Check your connection and try again.' })}
        </Alert>
      ) : draft.data ? (
        <p className="text-xs text-zinc-500 dark:text-zinc-400" data-testid="listing-draft-files">
          {draft.data.fileCount} {draft.data.fileCount === 1 ? 'file' : 'files'} will be included.
        </p>
      ) : null}

      <InputField label="Title" value={values.title} onChange={(e) => editText('title', e.target.value)} error={errors.title} disabled={pending} data-testid="listing-title-input" />
      <TextArea label="Summary" value={values.summary} onChange={(summary) => editText('summary', summary)} error={errors.summary} disabled={pending} testId="listing-summary-input" />

      <fieldset className="flex flex-col gap-2" disabled={pending}>
        <legend className="mb-1.5 text-sm font-medium text-zinc-800 dark:text-zinc-200">Visibility</legend>
        <div className="grid grid-cols-2 gap-2">
          {(['free', 'commercial'] as const).map((visibility) => (
            <label
              key={visibility}
              className={cn(
                'flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm',
                values.visibility === visibility ? 'border-brand bg-brand/5' : 'border-zinc-200 dark:border-zinc-800',
              )}
            >
              <input type="radio" name="visibility" value={visibility} checked={values.visibility === visibility} onChange={() => edit({ visibility })} className="accent-[var(--color-brand)]" data-testid={`listing-visibility-${visibility}`} />
              {visibility === 'free' ? 'Free' : 'Commercial'}
            </label>
          ))}
        </div>
      </fieldset>
      {commercial ? (
        <InputField label="Price (USD)" inputMode="decimal" placeholder="19.99" value={values.price} onChange={(e) => edit({ price: e.target.value })} error={errors.price} disabled={pending} data-testid="listing-price-input" />
      ) : null}

      <InputField label="Tech stack (comma-separated)" value={values.techStack} onChange={(e) => edit({ techStack: e.target.value })} disabled={pending} data-testid="listing-tech-input" />
      <InputField label="Tags (comma-separated)" placeholder="game, canvas, beginner" value={values.tags} onChange={(e) => edit({ tags: e.target.value })} error={errors.tags} disabled={pending} data-testid="listing-tags-input" />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <InputField label="Demo URL" type="url" placeholder="https://" value={values.demoUrl} onChange={(e) => edit({ demoUrl: e.target.value })} error={errors.demoUrl} disabled={pending} data-testid="listing-demo-input" />
        <InputField label="Repository URL" type="url" placeholder="https://" value={values.repoUrl} onChange={(e) => edit({ repoUrl: e.target.value })} error={errors.repoUrl} disabled={pending} data-testid="listing-repo-input" />
      </div>
      <CoverPicker value={values.coverImage} error={errors.cover} disabled={pending} onChoose={(event) => void chooseCover(event)} onClear={() => edit({ coverImage: null })} />

      {failure ? <Alert testId="listing-form-error">{failure}</Alert> : null}

      <ModalActions>
        <Button variant="outline" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending || (draft.isPending && target.kind === 'create' && !touched.current)} data-testid="listing-submit">
          {pending ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : null}
          {target.kind === 'create' ? (pending ? 'Listing…' : 'List project') : pending ? 'Saving…' : 'Save changes'}
        </Button>
      </ModalActions>
    </form>
  );
}

function TextArea({ label, value, onChange, error, disabled, testId }: { label: string; value: string; onChange: (value: string) => void; error?: string | undefined; disabled: boolean; testId: string }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <textarea
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        rows={3}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={cn(
          'w-full resize-y rounded-lg border bg-white px-3 py-2 text-sm shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-brand/40 disabled:opacity-60 dark:bg-zinc-950',
          error ? 'border-red-500' : 'border-zinc-300 focus-visible:border-brand dark:border-zinc-700',
        )}
        data-testid={testId}
      />
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function CoverPicker({ value, error, disabled, onChoose, onClear }: { value: string | null; error?: string | undefined; disabled: boolean; onChoose: (event: ChangeEvent<HTMLInputElement>) => void; onClear: () => void }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <span className="text-sm font-medium text-zinc-800 dark:text-zinc-200">Cover image (optional)</span>
      <div className="flex items-center gap-3">
        {value ? <img src={value} alt="Chosen cover" className="h-14 w-24 rounded-md border border-zinc-200 object-cover dark:border-zinc-800" data-testid="listing-cover-preview" /> : null}
        <label htmlFor={id} className={buttonClass('outline', 'sm', disabled ? 'pointer-events-none opacity-60' : undefined)}>
          <ImagePlus className="h-4 w-4" aria-hidden />
          {value ? 'Replace' : 'Upload'}
        </label>
        <input id={id} type="file" accept="image/png,image/jpeg,image/webp,image/gif" className="sr-only" onChange={onChoose} disabled={disabled} data-testid="listing-cover-input" />
        {value ? (
          <Button variant="ghost" size="sm" onClick={onClear} disabled={disabled}>
            <X className="h-4 w-4" aria-hidden />
            Remove
          </Button>
        ) : (
          <span className="text-xs text-zinc-500 dark:text-zinc-400">PNG, JPEG, WebP or GIF up to 1 MB; otherwise one is made from the title.</span>
        )}
      </div>
      {error ? (
        <p className="text-sm text-red-600 dark:text-red-400" data-testid="listing-cover-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function Alert({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <p className="flex items-start gap-2 rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-500/40 dark:bg-red-500/10 dark:text-red-100" role="alert" data-testid={testId}>
      <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <span>{children}</span>
    </p>
  );
}
