import { describe, expect, it } from 'vitest';
import { pageWindow } from '../pagination';

const E1 = 'ellipsis-start';
const E2 = 'ellipsis-end';

describe('pageWindow', () => {
  it('shows every page when there are five or fewer', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(5, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('shows up to four numbers near the start, then an ellipsis and the last page', () => {
    expect(pageWindow(1, 10)).toEqual([1, 2, 3, 4, E2, 10]);
    expect(pageWindow(3, 10)).toEqual([1, 2, 3, 4, E2, 10]);
  });

  it('shows first, current plus and minus one, and last in the middle', () => {
    expect(pageWindow(4, 10)).toEqual([1, E1, 3, 4, 5, E2, 10]);
    expect(pageWindow(6, 10)).toEqual([1, E1, 5, 6, 7, E2, 10]);
  });

  it('shows the last four pages near the end', () => {
    expect(pageWindow(8, 10)).toEqual([1, E1, 7, 8, 9, 10]);
    expect(pageWindow(10, 10)).toEqual([1, E1, 7, 8, 9, 10]);
  });

  it('clamps an out-of-range page and handles no pages', () => {
    expect(pageWindow(99, 6)).toEqual([1, E1, 3, 4, 5, 6]);
    expect(pageWindow(1, 0)).toEqual([]);
  });
});
