/**
 * Static checks of a generated project, run before it is shown or saved, so an engine can be
 * asked to fix what is broken while the context is still warm. Everything runs in memory.
 *
 * TypeScript type-checking reads the real declarations of the packages when they are installed
 * (`nodeModules`, from the execution gate), else types them with stand-ins. Not done here yet:
 * Python syntax (needs a Python parser in JS), SCSS/Less, Vue/Svelte single-file components.
 */
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { familyFor } from './code-scan.js';
import { scanModule } from './scan-module.js';
import { checkHtml } from './verify-html.js';
import { checkPaths } from './verify-paths.js';
import { ImportChecker } from './verify-imports.js';
import { classifySpecifier } from './resolve-imports.js';
import { isTypeScriptPath, typeCheckMany, type TypeCheckOptions } from './verify-types.js';
import type { StepSink } from './step-progress.js';
import type { VerifyCheck, VerifyProblem } from './verify-problem.js';

export type { ExecutionCheck, StaticCheck, VerifyCheck, VerifyProblem } from './verify-problem.js';

/**
 * A check beyond the static ones (the execution gate), run wherever the pipeline verifies a whole
 * project: its problems are repaired and guarded like any other. `role` says which stage asks.
 * When it installed the project's dependencies it says where (`nodeModules`), and the static
 * type check of the same files reads their real declarations there instead of stand-ins.
 */
export type ProjectCheck = (
  files: Readonly<Record<string, string>>,
  /** `note`: a line for the Activity Feed (the check waits for a sandbox, say); `step`: its steps' start and end lines. */
  context: { role: 'Checking' | 'Proven Code'; signal?: AbortSignal; note?: (message: string) => void; step?: StepSink },
) => Promise<Pick<VerifyReport, 'checked' | 'problems'> & Pick<TypeCheckOptions, 'nodeModules'>>;

export interface VerifyReport {
  /**
   * Every file, with the checks that ran on it (empty when none applies, e.g. Python). The
   * project-wide 'duplicates' rule is listed only on the files it flags.
   */
  checked: { path: string; checks: VerifyCheck[] }[];
  problems: VerifyProblem[];
  /** No problems at all. */
  passed: boolean;
}

const JSON_ERROR_TEXT: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: "expected ':'",
  CommaExpected: "expected ','",
  CloseBraceExpected: "expected '}'",
  CloseBracketExpected: "expected ']'",
  EndOfFileExpected: 'unexpected content after the end',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in string',
};

function lineAt(content: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < content.length; i++) if (content.charCodeAt(i) === 10) line++;
  return line;
}

function isJsonPath(path: string): boolean {
  return /\.(json|jsonc|webmanifest)$/i.test(path);
}

/** Parses JSON (JSONC for tsconfig-like files); returns the value or the first error. */
function checkJson(path: string, content: string): { value: unknown } | VerifyProblem {
  const jsonc = familyFor(path) === 'jsonc';
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(content, errors, { disallowComments: !jsonc, allowTrailingComma: jsonc });
  const first = errors[0];
  if (!first) {
    if (jsonc) return { value };
    // Belt and braces: whatever the lenient parser let through, JSON.parse has the last word.
    try {
      return { value: JSON.parse(content) as unknown };
    } catch (error) {
      return { path, check: 'json', message: `invalid JSON: ${(error as Error).message}` };
    }
  }
  const code = printParseErrorCode(first.error);
  const what = JSON_ERROR_TEXT[code] ?? code;
  return { path, check: 'json', message: `invalid JSON: ${what}`, line: lineAt(content, first.offset) };
}

function checkManifest(path: string, value: unknown): VerifyProblem[] {
  const problem = (message: string): VerifyProblem => ({ path, check: 'package-json', message });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [problem('package.json must be a JSON object')];
  const record = value as Record<string, unknown>;
  const problems: VerifyProblem[] = [];
  const name = record['name'];
  if (name !== undefined && (typeof name !== 'string' || classifySpecifier(name).type !== 'package')) {
    problems.push(problem(`"name" must be a valid npm package name, not ${JSON.stringify(name)}`));
  }
  if (typeof name !== 'string' && record['private'] !== true) {
    problems.push(problem('package.json needs a "name" or "private": true'));
  }
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies', 'scripts']) {
    const deps = record[field];
    if (deps === undefined) continue;
    const ok = typeof deps === 'object' && deps !== null && !Array.isArray(deps) && Object.values(deps).every((v) => typeof v === 'string');
    if (!ok) problems.push(problem(`"${field}" must be an object of strings`));
  }
  return problems;
}

const LOCAL_URL = /^(?![a-z][a-z0-9+.-]*:|\/\/|#|\{\{|<%|%)/i;

/**
 * Runs every static check that applies: JSON/JSONC validity, package.json shape and declared
 * dependencies, JS/TS/JSX/CSS syntax (esbuild), local imports and HTML script/stylesheet
 * references resolving to generated files, HTML well-formedness, and TypeScript types.
 */
export function verifyProject(files: Readonly<Record<string, string>>, options: TypeCheckOptions = {}): VerifyReport {
  return verifyProjects([files], options)[0]!;
}

/**
 * {@link verifyProject} of each project, with the same reports; the type checks of projects that
 * share nothing global run in one TypeScript program (njin checks its candidates this way).
 * `options.nodeModules` applies to every project of the list.
 */
export function verifyProjects(list: readonly Readonly<Record<string, string>>[], options: TypeCheckOptions = {}): VerifyReport[] {
  const reports = list.map(checkWithoutTypes);
  // Type errors on top of syntax errors are mostly noise: type-check once the TS files parse.
  const typed = reports.flatMap((report, index) => {
    const tsChecked = report.checked.filter((c) => isTypeScriptPath(c.path));
    return tsChecked.length > 0 && !report.problems.some((p) => p.check === 'syntax' && isTypeScriptPath(p.path)) ? [{ index, tsChecked }] : [];
  });
  const typeProblems = typeCheckMany(typed.map(({ index }) => list[index]!), options);
  typed.forEach(({ index, tsChecked }, k) => {
    reports[index]!.problems.push(...typeProblems[k]!);
    for (const entry of tsChecked) entry.checks.push('types');
  });
  for (const report of reports) {
    report.problems.sort((a, b) => (a.path === b.path ? (a.line ?? 0) - (b.line ?? 0) : a.path < b.path ? -1 : 1));
    report.passed = report.problems.length === 0;
  }
  return reports;
}

/** Every check but the types'. */
function checkWithoutTypes(files: Readonly<Record<string, string>>): VerifyReport {
  const problems: VerifyProblem[] = [];
  const checked: VerifyReport['checked'] = [];
  const imports = new ImportChecker(files);

  for (const path of Object.keys(files).sort()) {
    const content = files[path] ?? '';
    const checks: VerifyCheck[] = [];
    const name = path.split('/').pop() ?? path;

    if (isJsonPath(path)) {
      checks.push('json');
      const result = checkJson(path, content);
      if ('check' in result) problems.push(result);
      else if (name === 'package.json') {
        checks.push('package-json');
        problems.push(...checkManifest(path, result.value));
      }
    }

    const scan = scanModule(path, content);
    if (scan) {
      checks.push('syntax');
      for (const error of scan.errors) {
        const problem: VerifyProblem = { path, check: 'syntax', message: error.message };
        if (error.line !== undefined) problem.line = error.line;
        problems.push(problem);
      }
      if (scan.errors.length === 0) {
        checks.push('imports');
        for (const entry of scan.imports) imports.check(path, content, entry.specifier, entry.kind === 'css-import' ? 'css' : 'module');
      }
    }

    if (/\.html?$/i.test(path)) {
      checks.push('html', 'imports');
      const html = checkHtml(content);
      for (const p of html.problems) {
        const problem: VerifyProblem = { path, check: 'html', message: p.message };
        if (p.line !== undefined) problem.line = p.line;
        problems.push(problem);
      }
      for (const ref of html.references) {
        if (LOCAL_URL.test(ref.url) && ref.url.trim() !== '') imports.check(path, content, ref.url.trim(), 'html');
      }
    }
    checked.push({ path, checks });
  }

  problems.push(...imports.problems, ...imports.undeclaredPackages());
  for (const problem of checkPaths(Object.keys(files))) {
    problems.push(problem);
    checked.find((c) => c.path === problem.path)?.checks.push('duplicates');
  }
  return { checked, problems, passed: false };
}

/**
 * Which files a check actually read: 'duplicates' looks at a file's name, not its content, so it
 * covers nothing. Only covered files may be called verified.
 */
export function coverage(report: Pick<VerifyReport, 'checked'>): { covered: string[]; uncovered: string[]; checks: VerifyCheck[] } {
  const covered: string[] = [];
  const uncovered: string[] = [];
  const checks = new Set<VerifyCheck>();
  for (const entry of report.checked) {
    const real = entry.checks.filter((c) => c !== 'duplicates');
    (real.length > 0 ? covered : uncovered).push(entry.path);
    for (const c of real) checks.add(c);
  }
  return { covered, uncovered, checks: [...checks] };
}

/** "3 files checked (syntax, imports); 2 files not covered by any check (README.md, main.py)". */
export function describeCoverage(report: Pick<VerifyReport, 'checked'>): string {
  const { covered, uncovered, checks } = coverage(report);
  const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
  const head = covered.length > 0 ? `${files(covered.length)} checked (${checks.join(', ')})` : 'no file was covered by a check';
  if (uncovered.length === 0) return head;
  const named = uncovered.length <= 5 ? ` (${uncovered.join(', ')})` : ` (${uncovered.slice(0, 5).join(', ')}, …)`;
  return `${head}; ${files(uncovered.length)} not covered by any check${named}`;
}

/**
 * The problems as compact lines an engine can act on:
 * `src/a.ts: syntax: Expected ";" but found "x" (line 3)`. At most `limit` lines.
 */
export function formatProblems(report: VerifyReport, limit = 50, options: { details?: boolean } = {}): string {
  // "No problems" only of files a check read: with none covered, nothing was shown to be fine.
  if (report.passed) return `${coverage(report).covered.length > 0 ? 'No problems' : 'Nothing was checked'}: ${describeCoverage(report)}.`;
  const lines = report.problems
    .slice(0, limit)
    .map((p) => `${p.path}: ${p.check}: ${p.message}${p.line === undefined ? '' : ` (line ${p.line})`}${options.details && p.detail ? `\n${indent(p.detail)}` : ''}`);
  const rest = report.problems.length - limit;
  if (rest > 0) lines.push(`… and ${rest} more problem${rest === 1 ? '' : 's'}.`);
  return lines.join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
