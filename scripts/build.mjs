// Builds the server (tsc via `nest build`), the web page (web/build.mjs) and the map's glyphs
// (scripts/build-glyphs.mjs) into dist/, and records a
// fingerprint of each part's sources beside it. With --if-stale, a part whose sources are unchanged
// since its last build is left alone: `npm start` and the CLI commands run this first, so they build
// only after a source changed (a check of ~1 MB of sources, tens of milliseconds), never every time.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const require = createRequire(import.meta.url);
const ifStale = process.argv.includes('--if-stale');
const quiet = process.env.npm_config_loglevel === 'silent';

// What each part is built from (files or folders, relative to the root) and the file it produces.
// package-lock.json is in both: a dependency update can change the compiled server or the bundle.
const PARTS = [
  {
    name: 'server',
    inputs: [
      'src',
      'prisma',
      'tsconfig.json',
      'tsconfig.build.json',
      'nest-cli.json',
      'package-lock.json',
      'scripts/build.mjs',
    ],
    output: 'dist/src/main.js',
    command: [process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build']],
  },
  {
    name: 'web',
    inputs: ['web', 'package-lock.json', 'scripts/build.mjs'],
    output: 'dist/web/index.html',
    command: [process.execPath, [join(root, 'web', 'build.mjs')]],
  },
  {
    // The map's glyphs (GET /map/fonts/...): slow to make (seconds), so only when the font or the script changed.
    name: 'glyphs',
    inputs: ['scripts/build-glyphs.mjs', 'package-lock.json'],
    output: 'dist/glyphs/Noto Sans Regular/0-255.pbf',
    command: [process.execPath, [join(root, 'scripts', 'build-glyphs.mjs')]],
  },
];

function filesUnder(path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}

// Content, not modification times: a checkout or a `touch` that changes nothing does not rebuild.
function fingerprint(part) {
  const hash = createHash('sha256');
  const files = part.inputs.flatMap(filesUnder).sort();
  for (const file of files)
    hash
      .update(`${relative(root, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  return hash.digest('hex');
}

const stampFile = (part) => join(dist, `.build-${part.name}.sha256`);
const stamped = (part) => (existsSync(stampFile(part)) ? readFileSync(stampFile(part), 'utf8').trim() : undefined);

const stale = [];
for (const part of PARTS) {
  const print = fingerprint(part);
  if (!ifStale || !existsSync(join(root, part.output)) || stamped(part) !== print) stale.push({ part, print });
}
if (ifStale && stale.length > 0 && !quiet) {
  console.error(`Building ${stale.map((s) => s.part.name).join(' and ')} (sources changed since the last build)...`);
}
for (const { part, print } of stale) {
  const [command, args] = part.command;
  // The build's own output goes to stderr: `npm run --silent export -- -` keeps stdout for its data.
  const { status, signal } = spawnSync(command, args, { cwd: root, stdio: ['inherit', process.stderr, 'inherit'] });
  if (status !== 0) {
    console.error(`The ${part.name} build failed${signal ? ` (${signal})` : ''}.`);
    process.exit(status ?? 1);
  }
  // The fingerprint taken before building: a file edited during the build makes the next run build again.
  mkdirSync(dist, { recursive: true });
  writeFileSync(stampFile(part), `${print}\n`);
}
