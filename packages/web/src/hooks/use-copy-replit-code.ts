/**
 * Copy for Replit (spec core §2 success banner, project detail): every file of a project
 * consolidated by the server (GET /api/projects/{id}/replit-code), put on the clipboard.
 */
import { useCallback, useState } from 'react';
import { fetchReplitCode } from '../api/queries';
import { copyText } from '../lib/clipboard';
import { toast } from './use-toast';

export function useCopyReplitCode() {
  const [copying, setCopying] = useState(false);

  const copy = useCallback(async (projectId: string): Promise<boolean> => {
    setCopying(true);
    try {
      let code: string;
      try {
        const reply = await fetchReplitCode(projectId);
        if (!reply.success) {
          toast({ title: 'Error', description: reply.error || 'Failed to generate code', variant: 'destructive' });
          return false;
        }
        code = reply.code;
      } catch {
        toast({ title: 'Error', description: 'Failed to copy code', variant: 'destructive' });
        return false;
      }
      try {
        await copyText(code);
      } catch {
        toast({
          title: 'Copy Failed',
          description: 'The browser did not allow copying. Copy the files one by one from the project page.',
          variant: 'destructive',
        });
        return false;
      }
      toast({ title: 'Copied!', description: 'The project code is on your clipboard. Paste it into Replit.' });
      return true;
    } finally {
      setCopying(false);
    }
  }, []);

  return { copy, copying };
}
