import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

// Links and anchors of Markdown files as GitHub renders them, for the docs link check. No Markdown
// parser is installed, so this reads only what the docs use: inline links, reference definitions,
// ATX headings and <a id>/<a name>; fenced code and inline code are skipped.

export interface MarkdownLink {
  file: string;
  line: number;
  target: string;
}

const FENCE = /^\s*(```|~~~)/;
const INLINE_CODE = /`+[^`]*`+/g;
// [text](target "title"), ![alt](target), with one level of brackets inside the text.
const INLINE_LINK = /!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
const HTML_ANCHOR = /<a\s+(?:[^>]*\s)?(?:id|name)="([^"]+)"/g;

// Lines outside fenced code blocks, with their 1-based numbers.
function proseLines(text: string): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    if (FENCE.test(line)) fenced = !fenced;
    else if (!fenced) out.push([i + 1, line]);
  });
  return out;
}

export function linksOf(file: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const [line, raw] of proseLines(readFileSync(file, 'utf8'))) {
    const text = raw.replace(INLINE_CODE, '');
    for (const m of text.matchAll(INLINE_LINK)) links.push({ file, line, target: m[1] });
    const definition = DEFINITION.exec(text);
    if (definition) links.push({ file, line, target: definition[1] });
  }
  return links;
}

// GitHub's heading ids (github-slugger): the heading's text, lower-cased, without punctuation other
// than - and _, spaces as dashes; a repeated id gets -1, -2, ...
export function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, line] of proseLines(readFileSync(file, 'utf8'))) {
    for (const m of line.matchAll(HTML_ANCHOR)) anchors.add(m[1]);
    const heading = HEADING.exec(line);
    if (!heading) continue;
    const base = slug(plainText(heading[1]));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

function plainText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '');
}

export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

// What is wrong with one relative link ("" when nothing): a missing file, or an anchor it lacks.
export function brokenLink(link: MarkdownLink, root: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target) || link.target.startsWith('//')) return '';
  const [path, anchor] = splitTarget(link.target);
  const target = path === '' ? link.file : resolve(dirname(link.file), path);
  const where = `${relative(root, link.file)}:${link.line} -> ${link.target}`;
  if (!existsSync(target)) return `${where}: no such file`;
  if (anchor === undefined || statSync(target).isDirectory() || !target.endsWith('.md')) return '';
  return anchorsOf(target).has(anchor.toLowerCase()) ? '' : `${where}: no such heading or anchor`;
}

function splitTarget(target: string): [string, string | undefined] {
  const hash = target.indexOf('#');
  const path = decodeURIComponent(hash === -1 ? target : target.slice(0, hash)).split('?')[0];
  return [path, hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1))];
}
