// zod's tree-shakable "mini" build: the sign-in page loads only the checks it uses (the full
// zod build alone was a quarter of the sign-in page's JavaScript).
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod/mini';

const trimmed = () => z.string().check(z.trim());

const email = trimmed().check(z.minLength(1, 'Email is required'), z.email('Please enter a valid email address'));

export const loginSchema = z.object({
  email,
  password: z.string().check(z.minLength(1, 'Password is required')),
});
export type LoginValues = z.infer<typeof loginSchema>;
export const loginResolver = zodResolver(loginSchema);

export const forgotPasswordSchema = z.object({ email });
export type ForgotPasswordValues = z.infer<typeof forgotPasswordSchema>;
export const forgotPasswordResolver = zodResolver(forgotPasswordSchema);

export const resetPasswordSchema = z
  .object({
    password: z.string().check(
      z.minLength(8, 'Password must be at least 8 characters'),
      z.maxLength(128, 'Password must be at most 128 characters'),
    ),
    confirm: z.string(),
  })
  .check(
    z.refine((values) => values.password === values.confirm, {
      message: 'The two passwords do not match',
      path: ['confirm'],
    }),
  );
export type ResetPasswordValues = z.infer<typeof resetPasswordSchema>;
export const resetPasswordResolver = zodResolver(resetPasswordSchema);

export const acceptInviteSchema = z.object({
  username: trimmed().check(z.minLength(3, 'Username must be at least 3 characters')),
  password: z.string().check(
    z.minLength(8, 'Password must be at least 8 characters'),
    z.maxLength(128, 'Password must be at most 128 characters'),
  ),
});
export type AcceptInviteValues = z.infer<typeof acceptInviteSchema>;
export const acceptInviteResolver = zodResolver(acceptInviteSchema);

const subdomain = trimmed().check(
  z.minLength(3, 'Subdomain must be at least 3 characters'),
  z.regex(/^[a-z0-9-]+$/, 'Subdomain can only contain lowercase letters, numbers, and hyphens'),
);

export const companyLoginSchema = z.object({ subdomain });
export type CompanyLoginValues = z.infer<typeof companyLoginSchema>;

export const registerSchema = z.object({
  companyName: trimmed().check(z.minLength(2, 'Company name must be at least 2 characters')),
  contactName: trimmed().check(z.minLength(2, 'Contact name is required')),
  contactEmail: trimmed().check(z.email('Please enter a valid email address')),
  subdomain,
  adminUsername: trimmed().check(z.minLength(3, 'Username must be at least 3 characters')),
  adminEmail: trimmed().check(z.email('Please enter a valid email address')),
  adminPassword: z.string().check(z.minLength(8, 'Password must be at least 8 characters')),
});
export type RegisterValues = z.infer<typeof registerSchema>;

export const STEP_ONE_FIELDS = ['companyName', 'contactName', 'contactEmail', 'subdomain'] as const;
export const STEP_TWO_FIELDS = ['adminUsername', 'adminEmail', 'adminPassword'] as const;
