import { describe, expect, it } from 'vitest';
import { submitLabel } from '../statuses';

describe('the save button follows the status', () => {
  it.each([
    ['create', 'draft', '', 'draft', 'Save draft'],
    ['create', 'published', '', 'draft', 'Publish'],
    ['create', 'published', '2099-01-31', 'draft', 'Schedule'],
    ['edit', 'published', '2020-01-01', 'published', 'Update'],
    ['edit', 'published', '2020-01-01', 'draft', 'Publish'],
    ['edit', 'draft', '2020-01-01', 'published', 'Save draft'],
    ['edit', 'archived', '', 'published', 'Update'],
  ] as const)('%s, %s, date %j (was %s): %s', (mode, status, date, initial, label) => {
    expect(submitLabel(mode, status, date, initial)).toBe(label);
  });
});
