/** How every stage must write files: the format parseFileBlocks understands best. */
export const FILE_FORMAT = `Write every file as a fenced code block whose info string is the language and then the file's relative path, like this:

\`\`\`ts src/main.ts
// the complete file content
\`\`\`

Rules for files:
- Always write the COMPLETE file. Never write placeholders such as "// rest of code unchanged", "...", or "TODO: implement".
- Paths are relative to the project root, use forward slashes, and never start with / or contain "..".
- If a file itself contains \`\`\` fences (a README, for example), open and close its block with four backticks.`;

/** The idea and attachments as a user message section. */
export function ideaSection(idea: string, attachmentsText: string): string {
  return `Project idea:\n${idea.trim()}${attachmentsText ? `\n\nAttached files from the user:\n${attachmentsText}` : ''}`;
}
