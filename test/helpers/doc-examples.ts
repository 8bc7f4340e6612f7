import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The examples in README.md and docs/*.md, read generically so a new example is covered as soon as
// it is written: every `curl` addressed to the service (localhost:3000) in a code block, with the
// output shown after it in `#` comments, and every ```json block that is a search response.
export const SERVICE = /(?:https?:\/\/)?(?:localhost|127\.0\.0\.1):3000/g;

export interface CurlExample {
  where: string; // file:line
  command: string;
  shown: string; // the comment lines right after the command: the output it promises
}

export interface JsonExample {
  where: string;
  value: unknown;
}

export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join('docs', name));
  return ['README.md', ...docs];
}

interface Block {
  info: string;
  start: number; // line number of the first line inside the fence
  lines: string[];
}

function codeBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let open: Block | undefined;
  text.split('\n').forEach((line, i) => {
    const fence = /^\s*```(.*)$/.exec(line);
    if (fence && !open) open = { info: fence[1].trim(), start: i + 2, lines: [] };
    else if (fence && open) {
      blocks.push(open);
      open = undefined;
    } else if (open) open.lines.push(line);
  });
  return blocks;
}

// A shell command continues on the next line after a trailing backslash or inside an open quote.
function continues(command: string): boolean {
  const unquoted = command.replace(/'[^']*'/g, '').replace(/"(?:[^"\\]|\\.)*"/g, '');
  return /\\\s*$/.test(command) || /['"]/.test(unquoted);
}

export function extractExamples(root: string): { curls: CurlExample[]; responses: JsonExample[] } {
  const curls: CurlExample[] = [];
  const responses: JsonExample[] = [];
  for (const file of docFiles(root)) {
    for (const block of codeBlocks(readFileSync(join(root, file), 'utf8'))) {
      if (block.info === 'json') {
        try {
          responses.push({ where: `${file}:${block.start}`, value: JSON.parse(block.lines.join('\n')) });
        } catch {
          // not a whole JSON document (an excerpt): nothing to run
        }
        continue;
      }
      for (let i = 0; i < block.lines.length; i++) {
        const first = block.lines[i].trim().replace(/^\$\s+/, '');
        if (!first.startsWith('curl ')) continue;
        const start = i;
        let command = first;
        while (continues(command) && i + 1 < block.lines.length) command += `\n${block.lines[++i]}`;
        let shown = '';
        while (i + 1 < block.lines.length && /^\s*#/.test(block.lines[i + 1]))
          shown += `${block.lines[++i].replace(/^\s*#\s?/, '')}\n`;
        SERVICE.lastIndex = 0;
        if (SERVICE.test(command)) curls.push({ where: `${file}:${block.start + start}`, command, shown });
      }
    }
  }
  return { curls, responses };
}

// The example as run: the real address and key in place of the documented ones, and the status
// code written after the body. Refuses anything but a single curl command.
export function runnable(example: CurlExample, base: string, key: string): string {
  const unquoted = example.command.replace(/'[^']*'/g, "''").replace(/"(?:[^"\\]|\\.)*"/g, '""');
  if (/[|;&<>`]/.test(unquoted)) throw new Error(`${example.where}: an example must be a single curl command`);
  return (
    example.command
      .replace(SERVICE, base)
      // the key as written (lis_..., or a variable or command substitution) becomes a real one
      .replace(/(['"])x-api-key:.*?\1/gi, (_, quote: string) => `${quote}x-api-key: ${key}${quote}`) +
    ` -w '\\n%{http_code}'`
  );
}

// What the shown output promises: an error status, an empty page, or (by default) records.
export function promise(example: CurlExample): { status: number; records: 'some' | 'none' | 'any' } {
  const status = /"isSuccess":\s*false/.test(example.shown)
    ? Number(/\b([45]\d\d)\b/.exec(example.shown)?.[1] ?? 400)
    : 200;
  if (status !== 200) return { status, records: 'any' };
  if (/"data":\s*\[\s*\]|"pageTotal":\s*0\b/.test(example.shown)) return { status, records: 'none' };
  // POST /search's records are `data`; the STAC API's item search (/stac/search) answers in its own shape.
  return { status, records: /(?<!\/stac)\/search\b/.test(example.command) ? 'some' : 'any' };
}
