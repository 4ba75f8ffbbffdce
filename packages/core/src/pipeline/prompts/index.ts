export { FILE_FORMAT, ideaSection } from './shared.js';
export { BUILD_ALL_SYSTEM, PLANNING_SYSTEM, planningUser } from './planning.js';
export { BUILDING_SYSTEM, buildingUser, completionUser } from './building.js';
export { REPAIR_SYSTEM, repairUser } from './checking.js';
export { POLISHING_SYSTEM, polishingUser } from './polishing.js';
