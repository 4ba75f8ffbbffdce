import type { Logger } from '../../logger.js';
import type { SettingsService } from '../accounts/settings-service.js';
import type { VersionStore } from './version-store.js';

export interface ProjectImportOptions {
  store: VersionStore;
  settings: SettingsService;
  /** GitHub's API (the fake in tests). */
  githubApiUrl?: string | undefined;
  log: Logger;
}

/** Imports: a zip or a GitHub repository becomes a project whose version 1 is "Imported from …". */
export class ProjectImportService {
  constructor(private readonly options: ProjectImportOptions) {
    void this.options;
  }
}
