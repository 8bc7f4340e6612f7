import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

// The comments of TypeScript files, as the compiler sees them (so `//` inside a string or a template
// is no comment), and the measurement language the check on src/'s comments refuses.

export interface SourceComment {
  file: string;
  /** 1-based line of the comment's first line. */
  line: number;
  /** The comment's words: markers (`//`, `/*`, `*`) dropped, lines joined, runs of white space one space. */
  text: string;
}

// Every comment of a file; a run of `//` lines with nothing but white space between them is one comment
// (a sentence wraps across them).
export function commentsOf(file: string): SourceComment[] {
  const source = readFileSync(file, 'utf8');
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const ranges = new Map<number, ts.CommentRange>();
  const visit = (node: ts.Node): void => {
    for (const r of ts.getLeadingCommentRanges(source, node.getFullStart()) ?? []) ranges.set(r.pos, r);
    for (const r of ts.getTrailingCommentRanges(source, node.getEnd()) ?? []) ranges.set(r.pos, r);
    for (const child of node.getChildren(sourceFile)) visit(child);
  };
  visit(sourceFile);
  const sorted = [...ranges.values()].sort((a, b) => a.pos - b.pos);
  const comments: SourceComment[] = [];
  let last: ts.CommentRange | undefined;
  for (const r of sorted) {
    const text = words(source.slice(r.pos, r.end));
    const joined =
      last !== undefined &&
      last.kind === ts.SyntaxKind.SingleLineCommentTrivia &&
      r.kind === ts.SyntaxKind.SingleLineCommentTrivia &&
      /^\s*$/.test(source.slice(last.end, r.pos)) &&
      source.slice(last.end, r.pos).split('\n').length === 2;
    if (joined) comments[comments.length - 1].text += ` ${text}`;
    else comments.push({ file, line: sourceFile.getLineAndCharacterOfPosition(r.pos).line + 1, text });
    last = r;
  }
  return comments;
}

function words(comment: string): string {
  return comment
    .replace(/^\/\/+/, '')
    .replace(/^\/\*+|\*+\/$/g, '')
    .replace(/^\s*\*+/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function typeScriptFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => join(dir, f));
}

// Measurement language: a figure someone measured, or the history of how it was found. A comment
// keeps the reason and links to docs/benchmarks.md's figures table; a bound the code enforces
// ("at most 16 KB", "2 s") is a rule, stated where it is made, and matches none of these.
const ORDINAL =
  '(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|' +
  'fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|\\d+(?:st|nd|rd|th))';
const NUMBER = '~?\\d[\\d,]*(?:\\.\\d+)?';
const RANGE = `${NUMBER}(?:\\s?-\\s?${NUMBER})?`;
const TIME = '(?:ms|us|µs|s|seconds?|minutes?)';
const SIZE = '(?:MB|KB|kB|GB)';
const END = '(?![\\w])';
const FRACTION = '(?:half|a third|a quarter|a fifth|a sixth|a tenth)';
// A count written with thousands separators (1,476), and "of its/the/a ... " up to a whole's figure.
const COUNT = '\\d{1,3}(?:,\\d{3})+';
// A figure after these words is the bound itself ("took longer than the 2 s timeout"), not a measurement.
const NOT_A_BOUND = '(?<!\\b(?:the|default|its|most|to|over|within|than) )';
const OF_A_WHOLE = "(?:its|the|a|an)\\s+(?:[\\w'-]+\\s+){0,3}?";

export const MEASUREMENT_LANGUAGE: Array<{ name: string; pattern: RegExp }> = [
  {
    name: 'a round of measurement',
    pattern: new RegExp(`\\b${ORDINAL}\\s+rounds?\\b(?!\\s+trips?)|\\bround\\s+\\d`, 'i'),
  },
  {
    name: 'a before -> after figure',
    pattern: new RegExp(`${RANGE}\\s?(?:${TIME}|${SIZE}|%)?\\s*(?:->|→)\\s*${RANGE}\\s?(?:${TIME}|${SIZE}|%)${END}`),
  },
  {
    name: 'a throughput',
    pattern: new RegExp(
      `${NUMBER}\\s?(?:records|req|requests|rows|places|searches|photos|tiles)/s\\b|` +
        `${NUMBER}\\s+(?:more\\s+|fewer\\s+)?(?:requests|searches|records|rows)\\s+(?:per|a)\\s+second\\b|` +
        `\\b${FRACTION}\\s+(?:more|fewer)\\s+(?:requests|searches|records)\\s+(?:per|a)\\s+second\\b`,
      'i',
    ),
  },
  {
    name: 'a measured time or share',
    pattern: new RegExp(
      `\\b(?:measured|took|taking|costs?|costing|spent|spends|saved|saves|ran in|runs in)\\b[^.;:]{0,40}?` +
        `(?:${NOT_A_BOUND}${RANGE}\\s?(?:${TIME}|%)${END}|\\b${FRACTION}\\s+(?:of|less|more)\\b)`,
      'i',
    ),
  },
  {
    name: 'a share of CPU or time',
    pattern: new RegExp(
      `(?:${NUMBER}\\s?%|\\b${FRACTION})\\s+(?:less\\s+|more\\s+)?(?:of\\s+)?(?:the\\s+|a\\s+|an\\s+|its\\s+)?` +
        `[\\w' -]{0,30}?\\b(?:CPU|busy time|wall time)\\b`,
      'i',
    ),
  },
  { name: 'a percentile', pattern: /\bp(?:50|90|95|99)\b[^.;]{0,30}?\d/i },
  {
    name: 'N times faster',
    pattern: new RegExp(`${NUMBER}\\s?(?:x|times)\\s+(?:faster|slower|cheaper|costlier|quicker)\\b`, 'i'),
  },
  {
    name: 'what it was',
    pattern: new RegExp(
      `\\b(?:was|were|used to be)\\s+${RANGE}\\s?(?:${TIME}|${SIZE}|%|x)${END}|` +
        `\\bfrom\\s+${RANGE}\\s?(?:${TIME}|${SIZE}|%)?\\s+to\\s+${RANGE}\\s?(?:${TIME}|${SIZE}|%)${END}`,
      'i',
    ),
  },
  {
    name: 'a part of a measured whole',
    pattern: new RegExp(
      `${NUMBER}\\s?(?:${TIME}|${SIZE})?\\s+of\\s+${OF_A_WHOLE}${NUMBER}\\s?(?:${TIME}|${SIZE})${END}|` +
        `${NUMBER}\\s?(?:${TIME}|${SIZE})\\s+of\\s+${OF_A_WHOLE}${NUMBER}|` +
        `${COUNT}\\s+of\\s+${OF_A_WHOLE}${COUNT}\\b|` +
        `${NUMBER}\\s?${TIME}\\s+for\\s+${NUMBER}\\s+\\w+`,
      'i',
    ),
  },
  { name: 'a benchmark run', pattern: /\b\d+(?:\.\d+)?\s?[MK]\s+(?:bench|records)\b/i },
];

// The measurement language in one comment's text: each pattern that matches, with what it matched.
export function measurementsIn(text: string): string[] {
  return MEASUREMENT_LANGUAGE.flatMap(({ name, pattern }) => {
    const m = pattern.exec(text);
    return m ? [`${name}: "${m[0]}"`] : [];
  });
}
