import { describe, expect, it } from 'vitest';
import { shortDate } from '../components/PageViewsChart';

describe('page views chart dates', () => {
  it("shows the company's calendar day as it is, whatever the browser's zone", () => {
    // Parsed as an instant, "2026-03-11" is 11 March 00:00 UTC: 10 March west of UTC.
    expect(shortDate('2026-03-11')).toBe('Mar 11');
    expect(shortDate('2026-01-01')).toBe('Jan 1');
  });
});
