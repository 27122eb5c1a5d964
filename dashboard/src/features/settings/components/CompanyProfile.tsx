import { useState } from 'react';
import { toast } from 'sonner';
import { useUpdateClientInfoMutation, type ClientInfo } from '@/api/company';
import { Badge } from '@/components/Badge';
import { Card, CardRow } from '@/components/Card';
import { toastError } from '@/components/notify';
import { formatDate } from '@/lib/format';
import { apiDown } from '../status';

type Company = ClientInfo['company'];

/** The IANA zones this browser knows (the server checks against its own list). */
function zoneNames(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', current, ...known])];
}

/** The company's time zone: admins change it here; it sets the days of the analytics. */
function TimeZoneRow({ company, editable }: { company: Company; editable: boolean }) {
  const current = company.timeZone;
  const [value, setValue] = useState(current);
  const [save, { isLoading }] = useUpdateClientInfoMutation();
  if (!editable) return <CardRow label="Time zone">{current}</CardRow>;

  async function onSave() {
    try {
      const { name, contactName, contactEmail } = company;
      const reply = await save({ name, contactName, contactEmail, timeZone: value }).unwrap();
      toast.success(reply.message || 'Client information updated successfully');
    } catch (err) {
      toastError(err, 'Failed to update company settings');
    }
  }

  return (
    <div className="list-row wrap">
      <label className="muted" htmlFor="company-time-zone">
        Time zone
      </label>
      <span className="row" style={{ flex: '1 1 200px', justifyContent: 'flex-end' }}>
        <select id="company-time-zone" className="select" style={{ maxWidth: 240 }} value={value} onChange={(e) => setValue(e.target.value)}>
          {zoneNames(current).map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
        <button type="button" className="btn btn-secondary btn-sm" disabled={isLoading || value === current} onClick={onSave}>
          Save
        </button>
      </span>
    </div>
  );
}

/** Company Information: who the company is, its plan and status, and its time zone. */
export function CompanyProfile({ company, editable }: { company: Company; editable: boolean }) {
  return (
    <Card title="Company Information" body="rows">
      <CardRow label="Company name">{company.name}</CardRow>
      <CardRow label="Contact person">{company.contactName}</CardRow>
      <CardRow label="Contact email">{company.contactEmail}</CardRow>
      <CardRow label="Subdomain">{company.subdomain}</CardRow>
      <CardRow label="Status">
        <Badge tone={apiDown(company) ? 'danger' : 'success'}>{company.status}</Badge>
      </CardRow>
      <CardRow label="Plan">{company.subscriptionPlan}</CardRow>
      <CardRow label="Member since">{formatDate(company.createdAt)}</CardRow>
      <TimeZoneRow company={company} editable={editable} />
    </Card>
  );
}
