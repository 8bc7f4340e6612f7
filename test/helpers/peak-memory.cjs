// Preloaded into a CLI by the smoke tests (`node --require`): prints the process's peak memory on exit.
process.on('exit', () => {
  process.stderr.write(`\npeak-rss-mb ${Math.round(process.resourceUsage().maxRSS / 1024)}\n`);
});
