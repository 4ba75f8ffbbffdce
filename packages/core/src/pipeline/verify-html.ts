/**
 * "Well-formed enough to load" for an HTML page. parse5 (the spec's parsing algorithm) decides
 * what a browser would build; because it silently repairs mismatched tags, balance is judged on
 * its tree: an element written in the source without its end tag (and not allowed to omit it)
 * is unclosed, and an end tag that closed nothing is stray.
 */
import { parse, type DefaultTreeAdapterTypes } from 'parse5';

type Node = DefaultTreeAdapterTypes.Node;
type Element = DefaultTreeAdapterTypes.Element;

export interface HtmlProblem {
  message: string;
  line?: number;
}

export interface HtmlReference {
  /** The `src`/`href` as written. */
  url: string;
  line: number;
  kind: 'script' | 'stylesheet';
}

export interface HtmlCheck {
  problems: HtmlProblem[];
  /** Scripts and stylesheets the page loads; the caller checks that local ones exist. */
  references: HtmlReference[];
}

const VOID = new Set('area base br col embed hr img input link meta source track wbr param keygen command basefont bgsound frame'.split(' '));
// Elements whose end tag HTML lets authors leave out.
const OPTIONAL_END = new Set('html head body p li dt dd option optgroup rb rt rtc rp tr td th thead tbody tfoot colgroup caption'.split(' '));
// Their content is text up to the matching end tag, so an "end tag" inside is not a tag.
const RAW_TEXT = new Set('script style textarea title xmp iframe noembed noframes noscript plaintext'.split(' '));

// parse5 errors that mean a browser would load something other than what was written.
const FATAL_PARSE_ERRORS: Record<string, string> = {
  'eof-in-element-that-can-contain-only-text': 'the file ends inside a <script>, <style>, <title> or <textarea> that is never closed',
  'eof-in-script-html-comment-like-text': 'the file ends inside a <script> that is never closed',
  'eof-in-tag': 'the file ends in the middle of a tag',
  'eof-in-comment': 'the file ends inside a comment that is never closed',
  'eof-in-doctype': 'the file ends inside the doctype',
};

function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

function childrenOf(node: Node): Node[] {
  const children: Node[] = 'childNodes' in node ? [...node.childNodes] : [];
  if (node.nodeName === 'template' && 'content' in node) children.push(...(node.content as DefaultTreeAdapterTypes.DocumentFragment).childNodes);
  return children;
}

function lineAt(content: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < content.length; i++) if (content.charCodeAt(i) === 10) line++;
  return line;
}

function attr(element: Element, name: string): string | undefined {
  return element.attrs.find((a) => a.name === name)?.value;
}

/** Parses a page and reports what would make a browser load something else than was written. */
export function checkHtml(content: string): HtmlCheck {
  const problems: HtmlProblem[] = [];
  const references: HtmlReference[] = [];
  // Server templates (Jinja, Django, EJS, Handlebars blocks) may open a tag in one branch and
  // close it in another; only the rendered page has to balance, so skip the balance rules there.
  const templated = /\{%|<%|\{\{[#/]/.test(content);
  const document = parse(content, {
    sourceCodeLocationInfo: true,
    onParseError: (error) => {
      const message = FATAL_PARSE_ERRORS[error.code];
      if (message !== undefined) problems.push({ message, line: error.startLine });
    },
  });

  const endTags = new Set<number>();
  // Source ranges where "</x>" is text, not a tag: start tags (attribute values), comments and
  // the bodies of raw-text elements.
  const skip: [number, number][] = [];
  let hasDoctype = false;
  let writtenElements = 0;

  const visit = (node: Node): void => {
    if (node.nodeName === '#documentType') hasDoctype = true;
    if (node.nodeName === '#comment' && node.sourceCodeLocation) {
      skip.push([node.sourceCodeLocation.startOffset, node.sourceCodeLocation.endOffset]);
    }
    if (isElement(node)) {
      const location = node.sourceCodeLocation;
      const start = location?.startTag;
      if (start) {
        writtenElements++;
        skip.push([start.startOffset, start.endOffset]);
        if (location.endTag) endTags.add(location.endTag.startOffset);
        if (RAW_TEXT.has(node.tagName)) skip.push([start.endOffset, location.endTag?.startOffset ?? content.length]);
        const selfClosed = content.slice(start.endOffset - 2, start.endOffset) === '/>';
        const foreign = node.namespaceURI !== 'http://www.w3.org/1999/xhtml';
        // A raw-text element without an end tag runs to the end of the file: parse5 reports that.
        const mayLackEnd = VOID.has(node.tagName) || OPTIONAL_END.has(node.tagName) || RAW_TEXT.has(node.tagName);
        if (!templated && !location.endTag && !mayLackEnd && !(foreign && selfClosed)) {
          problems.push({ message: `<${node.tagName}> opened on line ${start.startLine} is never closed`, line: start.startLine });
        }
        const src = attr(node, 'src');
        if (node.tagName === 'script' && src !== undefined) {
          references.push({ url: src, line: location.attrs?.['src']?.startLine ?? start.startLine, kind: 'script' });
        }
        const rel = attr(node, 'rel')?.toLowerCase().split(/\s+/) ?? [];
        const href = attr(node, 'href');
        if (node.tagName === 'link' && href !== undefined && (rel.includes('stylesheet') || rel.includes('modulepreload'))) {
          references.push({ url: href, line: location.attrs?.['href']?.startLine ?? start.startLine, kind: 'stylesheet' });
        }
      }
    }
    for (const child of childrenOf(node)) visit(child);
  };
  visit(document);

  if (!hasDoctype && writtenElements === 0) {
    problems.push({ message: 'it has neither <!DOCTYPE html> nor any element, so it is not an HTML page' });
  }

  for (const match of templated ? [] : content.matchAll(/<\/([a-zA-Z][a-zA-Z0-9-]*)\s*>/g)) {
    const offset = match.index;
    if (endTags.has(offset) || skip.some(([from, to]) => offset >= from && offset < to)) continue;
    const tag = (match[1] ?? '').toLowerCase();
    // parse5 turns a stray </p> or </br> into an element of its own; browsers cope with those.
    if (tag === 'p' || tag === 'br') continue;
    const line = lineAt(content, offset);
    problems.push({ message: `</${tag}> on line ${line} has no matching open tag`, line });
  }
  return { problems, references };
}
