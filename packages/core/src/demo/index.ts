export { demoReply } from './demo-reply.js';
export { DEMO_FILES, demoFile, readIdea, type DemoIdea } from './demo-project.js';
