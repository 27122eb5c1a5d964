import { describe, expect, it } from 'vitest';
import { deleteErrorMessage, rewriteSaveError, scheduleFor, toCreatePayload, toUpdatePayload } from '../payload';
import type { PostFormValues } from '../schemas';

describe('edit-error rewriting (spec §5)', () => {
  it.each([
    ['Validation failed: title', 'Please check that all required fields are filled correctly'],
    ['validation_error', 'Please check that all required fields are filled correctly'],
    ['Invalid categories: 7', 'Please check your category selections'],
    ['Unknown tags selected', 'Please check your tag selections'],
    ['featured image not found', 'Please select a valid featured image'],
    ['Featured media missing', 'Please select a valid featured image'],
    ['Slug already in use', 'Slug already in use'],
  ])('%j -> %j', (server, shown) => {
    expect(rewriteSaveError(server)).toBe(shown);
  });

  it('checks the rules in table order', () => {
    expect(rewriteSaveError('Validation failed for categories and tags')).toBe(
      'Please check that all required fields are filled correctly',
    );
    expect(rewriteSaveError('categories and tags are wrong')).toBe('Please check your category selections');
  });
});

describe('delete error texts (spec §8)', () => {
  it('maps statuses and messages', () => {
    expect(deleteErrorMessage(409, 'Cannot delete post while it is scheduled').text).toBe(
      'Cannot delete post while it is scheduled',
    );
    expect(deleteErrorMessage(403, 'nope').text).toBe("You don't have permission to delete this post");
    expect(deleteErrorMessage(404, 'gone')).toEqual({ text: 'This post no longer exists', refresh: true });
    expect(deleteErrorMessage(500, 'boom').text).toBe('Failed to delete post. Please try again.');
  });
});

const values: PostFormValues = {
  title: '  My Post  ',
  content: '<p>Hi</p>',
  excerpt: ' Short ',
  status: 'published',
  categories: ['c1'],
  tags: [],
  featuredImage: { id: 'm1', url: 'http://x/y.png' },
  slug: '',
  seoTitle: '',
  seoDescription: '',
  focusKeyword: '',
  canonicalUrl: '',
  publishDate: '2024-05-01',
  videoId: '',
  featured: false,
  visibility: 'public',
};

describe('payloads', () => {
  it('create payload uses the spec names and defaults', () => {
    expect(toCreatePayload(values)).toEqual({
      postTitle: 'My Post',
      postContent: '<p>Hi</p>',
      postExcerpt: 'Short',
      customSlug: 'my-post',
      postStatus: 'published',
      categories: ['c1'],
      tags: [],
      featuredMediaId: 'm1',
      allowIndexing: true,
      videoId: '',
      seoMetadata: { title: 'My Post', description: 'Short', canonicalUrl: '', focusKeyword: '' },
    });
  });

  it('update payload sends only non-empty values, lists only when non-empty', () => {
    expect(toUpdatePayload({ ...values, featuredImage: null, categories: [] })).toEqual({
      title: 'My Post',
      content: '<p>Hi</p>',
      excerpt: 'Short',
      status: 'published',
    });
  });

  it('a publish date of today or earlier publishes now; a later day schedules at local midnight', () => {
    const now = new Date(2030, 0, 15, 23, 30);
    expect(scheduleFor('2030-01-15', now)).toBeUndefined();
    expect(scheduleFor('2029-12-31', now)).toBeUndefined();
    expect(scheduleFor('', now)).toBeUndefined();
    expect(scheduleFor('2030-01-16', now)).toBe(new Date(2030, 0, 16).toISOString());
    const future = { ...values, publishDate: '2999-01-02' };
    expect(toCreatePayload(future).scheduledPublishDate).toBe(new Date(2999, 0, 2).toISOString());
    expect(toUpdatePayload(future).scheduledPublishDate).toBe(new Date(2999, 0, 2).toISOString());
  });
});
