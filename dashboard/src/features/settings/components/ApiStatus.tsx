import type { ClientInfo } from '@/api/company';
import { Badge } from '@/components/Badge';
import { Card, CardRow } from '@/components/Card';
import { apiDown } from '../status';

/** API Status: whether the content API answers, the subscription and the rate limit. */
export function ApiStatus({ info }: { info: ClientInfo }) {
  const { company, apiInfo } = info;
  const down = apiDown(company);
  return (
    <Card title="API Status" body="rows">
      <CardRow label="Content API">
        <Badge tone={down ? 'danger' : 'success'}>{down ? 'Unavailable' : 'Operational'}</Badge>
      </CardRow>
      <CardRow label="Subscription">{company.subscriptionStatus}</CardRow>
      <CardRow label="Rate limit">
        {apiInfo.rateLimit.requests} requests / {apiInfo.rateLimit.windowSeconds} s
      </CardRow>
    </Card>
  );
}
