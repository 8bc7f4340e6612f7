import { readFileSync } from 'node:fs';
import { loadConfig } from '../../src/config/app-config';
import { SETTINGS } from '../../src/config/settings';
import { OPERATIONS_PAGE, pageWithCurrentTable } from '../docs/config-reference';

describe('configuration reference (docs/operations.md)', () => {
  it('is the table generated from src/config/settings.ts (run `npm run docs:config` when this fails)', () => {
    const page = readFileSync(OPERATIONS_PAGE, 'utf8');
    expect(page).toBe(pageWithCurrentTable(page));
  });

  it('lists every setting loadConfig reads, with the rule its error message states', () => {
    const page = readFileSync(OPERATIONS_PAGE, 'utf8');
    for (const setting of Object.values(SETTINGS)) {
      expect(page).toContain(`| \`${setting.env}\` |`);
      // Free text (a directory, a host) takes anything; every other rule refuses this, naming the variable.
      const junk = '\u0000 no \u0000';
      if (setting.type.accepts(junk)) expect(loadConfig({ [setting.env]: junk })).toBeDefined();
      else expect(() => loadConfig({ [setting.env]: junk })).toThrow(`  - ${setting.env} must be ${setting.type.rule}`);
    }
  });
});
