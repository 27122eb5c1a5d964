import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { baseHandlers } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

function company(subscriptionStatus: string) {
  return http.get('*/api/client/info', () =>
    HttpResponse.json({ success: true, message: 'ok', data: { company: { subscriptionStatus } } }),
  );
}

describe('the trial’s end', () => {
  it('says the dashboard is read-only, with the way to the plan', async () => {
    server.use(...baseHandlers, company('expired'));
    renderApp('/dashboard', { session: signedIn() });
    expect(await screen.findByText('Your trial has ended.')).toBeInTheDocument();
    expect(screen.getByText(/read-only until your plan is changed/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See your plan and usage' })).toHaveAttribute('href', '/dashboard/settings#usage');
  });

  it('says nothing while the trial runs', async () => {
    server.use(...baseHandlers, company('trialing'));
    renderApp('/dashboard', { session: signedIn() });
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('Your trial has ended.')).not.toBeInTheDocument();
  });
});
