/**
 * POST /api/projects/import: a zip sent as the body itself (never read into memory here), or a
 * GitHub repository as JSON. Refusals reject like every other request (`${status}: ${body}`), so
 * `describeRequestFailure` finds the server's sentence.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { importReply, type GithubImportRequest, type ImportReply } from '@wolfpack/core';
import { IMPORT_URL, importZipUrl } from '../lib/import-form';
import { apiRequest } from './client';
import { invalidateLibrary } from './library';

export type ImportSource =
  | {
      kind: 'zip';
      file: File;
      idea: string;
      /** The share of the zip sent so far, 0 to 1. */
      onProgress?: (sent: number) => void;
    }
  | { kind: 'github'; request: GithubImportRequest };

/**
 * Sends the zip with XMLHttpRequest rather than fetch: only it reports upload progress, and a zip
 * of many megabytes on a slow line needs more than a spinner.
 */
export function uploadZip(file: File, idea: string, onProgress?: (sent: number) => void): Promise<ImportReply> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', importZipUrl(file.name, idea));
    request.withCredentials = true;
    request.setRequestHeader('Content-Type', 'application/zip');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    request.onload = () => {
      if (request.status < 200 || request.status >= 300) {
        reject(new Error(`${request.status}: ${request.responseText || request.statusText}`));
        return;
      }
      try {
        resolve(importReply.parse(JSON.parse(request.responseText)));
      } catch (error) {
        reject(error instanceof Error ? error : new Error('The server’s reply to the import could not be read.'));
      }
    };
    request.onerror = () => reject(new Error('The zip did not reach the server. Check your connection and try again.'));
    request.send(file);
  });
}

/** Imports with the GitHub token saved in Settings. */
export async function importGithub(body: GithubImportRequest): Promise<ImportReply> {
  const res = await apiRequest('POST', IMPORT_URL, body);
  return importReply.parse(await res.json());
}

/** Imports a zip or a repository as a new project; the project lists refresh on success. */
export function useImportProject() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (source: ImportSource) =>
      source.kind === 'zip' ? uploadZip(source.file, source.idea, source.onProgress) : importGithub(source.request),
    onSuccess: () => invalidateLibrary(client),
  });
}
