import { z } from 'zod';

const email = z.string().trim().min(1, 'Email is required').pipe(z.email('Please enter a valid email address'));

export const loginSchema = z.object({
  email,
  password: z.string().min(1, 'Password is required'),
});
export type LoginValues = z.infer<typeof loginSchema>;

const subdomain = z
  .string()
  .trim()
  .min(3, 'Subdomain must be at least 3 characters')
  .regex(/^[a-z0-9-]+$/, 'Subdomain can only contain lowercase letters, numbers, and hyphens');

export const companyLoginSchema = z.object({ subdomain });
export type CompanyLoginValues = z.infer<typeof companyLoginSchema>;

export const registerSchema = z.object({
  companyName: z.string().trim().min(2, 'Company name must be at least 2 characters'),
  contactName: z.string().trim().min(2, 'Contact name is required'),
  contactEmail: z.string().trim().pipe(z.email('Please enter a valid email address')),
  subdomain,
  adminUsername: z.string().trim().min(3, 'Username must be at least 3 characters'),
  adminEmail: z.string().trim().pipe(z.email('Please enter a valid email address')),
  adminPassword: z.string().min(8, 'Password must be at least 8 characters'),
});
export type RegisterValues = z.infer<typeof registerSchema>;

export const STEP_ONE_FIELDS = ['companyName', 'contactName', 'contactEmail', 'subdomain'] as const;
export const STEP_TWO_FIELDS = ['adminUsername', 'adminEmail', 'adminPassword'] as const;
