import { Migration0001Accounts } from './migration-0001-accounts.js';
import { Migration0002RunsProjects } from './migration-0002-runs-projects.js';
import { Migration0003Enhancements } from './migration-0003-enhancements.js';
import { Migration0004FilesFolders } from './migration-0004-files-folders.js';
import { Migration0005Billing } from './migration-0005-billing.js';
import { Migration0006Showcase } from './migration-0006-showcase.js';
import { Migration0007Capsules } from './migration-0007-capsules.js';
import { Migration0008Njin } from './migration-0008-njin.js';
import { Migration0009Experiments } from './migration-0009-experiments.js';
import { Migration0010RunLeases } from './migration-0010-run-leases.js';
import { Migration0011ProjectListIndex } from './migration-0011-project-list-index.js';
import { Migration0012ProjectVerifications } from './migration-0012-project-verifications.js';
import { Migration0013RepairRuns } from './migration-0013-repair-runs.js';
import { Migration0014ProjectCounts } from './migration-0014-project-counts.js';
import { Migration0015ProjectListVersions } from './migration-0015-project-list-versions.js';
import { Migration0016PreviewEpochs } from './migration-0016-preview-epochs.js';
import { Migration0017ApiTokenExpiry } from './migration-0017-api-token-expiry.js';
import { Migration0018DropProjectListVersions } from './migration-0018-drop-project-list-versions.js';
import { Migration0019ContentAddressedVersions } from './migration-0019-content-addressed-versions.js';

/** Applied in order on start, the same on PGlite and PostgreSQL. Append only. */
export const migrationsList = [Migration0001Accounts, Migration0002RunsProjects, Migration0003Enhancements, Migration0004FilesFolders, Migration0005Billing, Migration0006Showcase, Migration0007Capsules, Migration0008Njin, Migration0009Experiments, Migration0010RunLeases, Migration0011ProjectListIndex, Migration0012ProjectVerifications, Migration0013RepairRuns, Migration0014ProjectCounts, Migration0015ProjectListVersions, Migration0016PreviewEpochs, Migration0017ApiTokenExpiry, Migration0018DropProjectListVersions, Migration0019ContentAddressedVersions];
