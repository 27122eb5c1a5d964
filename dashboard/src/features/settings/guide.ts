import type { ClientInfo } from '@/api/company';

/** The plain-text API guide offered by 'Download API Guide'. */
export function buildApiGuide(info: ClientInfo): string {
  const { company, apiInfo } = info;
  const auth = apiInfo.authentication;
  const header = auth.header;
  const ep = apiInfo.endpoints.posts;
  const ex = apiInfo.exampleRequests;
  return [
    `${company.name} - Content API Guide`,
    '='.repeat(40),
    '',
    `Base URL: ${apiInfo.baseUrl}`,
    `Authentication: ${auth.method} (header "${header}")`,
    `API key: ${auth.apiKey}`,
    `Note: ${auth.note}`,
    '',
    'Endpoints',
    '---------',
    `List posts:          GET ${apiInfo.baseUrl}${ep.list}`,
    `Get post by slug:    GET ${apiInfo.baseUrl}${ep.getBySlug}`,
    `Posts by category:   GET ${apiInfo.baseUrl}${ep.getByCategory}`,
    `Posts by tag:        GET ${apiInfo.baseUrl}${ep.getByTag}`,
    '',
    'Query parameters of the list: page (default 1), limit (default 10), status (published, draft,',
    'archived or all; published by default), search (title and content).',
    '',
    'Examples',
    '--------',
    `curl -H "${header}: ${auth.apiKey}" "${ex.getAllPosts.url}"`,
    `curl -H "${header}: ${auth.apiKey}" "${ex.getPostsByCategory.url}"`,
    `curl -H "${header}: ${auth.apiKey}" "${ex.getPostsByTag.url}"`,
    `curl -H "${header}: ${auth.apiKey}" "${ex.getPostBySlug.url}"`,
    '',
  ]
    .filter((line, i, all) => line !== '' || all[i - 1] !== '')
    .join('\n');
}
