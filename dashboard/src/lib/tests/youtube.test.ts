import { describe, expect, it } from 'vitest';
import { parseYouTubeId } from '../youtube';

const ID = 'dQw4w9WgXcQ';

describe('parseYouTubeId', () => {
  it.each([
    [`https://www.youtube.com/watch?v=${ID}`],
    [`https://youtube.com/watch?v=${ID}&t=42s`],
    [`https://m.youtube.com/watch?feature=share&v=${ID}`],
    [`youtube.com/watch?v=${ID}`],
    [`https://youtu.be/${ID}`],
    [`https://youtu.be/${ID}?si=abc123`],
    [`https://www.youtube.com/embed/${ID}`],
    [`https://www.youtube-nocookie.com/embed/${ID}?rel=0`],
    [`https://www.youtube.com/v/${ID}`],
    [`http://www.youtube.com/v/${ID}?version=3`],
    [ID],
    [`  ${ID}  `],
    ['a_b-C1d2E3f'],
  ])('accepts %s', (input) => {
    const expected = input.trim() === 'a_b-C1d2E3f' ? 'a_b-C1d2E3f' : ID;
    expect(parseYouTubeId(input)).toBe(expected);
  });

  it.each([
    [''],
    ['not a video'],
    ['dQw4w9WgXc'], // 10 characters
    ['dQw4w9WgXcQQ'], // 12 characters
    ['dQw4w9WgX!Q'], // forbidden character
    [`https://vimeo.com/${ID}`],
    [`https://www.youtube.com/watch?v=short`],
    [`https://www.youtube.com/channel/${ID}`],
    [`https://example.com/watch?v=${ID}`],
  ])('clears %j', (input) => {
    expect(parseYouTubeId(input)).toBe('');
  });
});
