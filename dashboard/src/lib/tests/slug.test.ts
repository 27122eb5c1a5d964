import { describe, expect, it } from 'vitest';
import { slugify } from '../slug';

describe('slugify', () => {
  it.each([
    ['Hello World', 'hello-world'],
    ['  Hello,   World!!  ', 'hello-world'],
    ['React & Redux: A Guide', 'react-redux-a-guide'],
    ['--Already--hyphenated--', 'already-hyphenated'],
    ['Top 10 Tips (2024)', 'top-10-tips-2024'],
    ['UPPER_case_with_underscores', 'upper-case-with-underscores'],
    ['Café déjà vu', 'caf-d-j-vu'],
    ['!!!', ''],
    ['', ''],
  ])('%j -> %j', (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });
});
