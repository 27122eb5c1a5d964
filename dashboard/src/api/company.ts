import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';
import type { components as RootComponents } from '@/lib/api-types/root';

type Schemas = components['schemas'];

/** The company as its settings screen shows it, and the guide to its content API. */
export type ClientInfo = Schemas['ClientInfoDataOut'];
export type CompanyUpdate = Schemas['ClientInfoIn'];
export type SignUp = Required<RootComponents['schemas']['RegisterClientIn']>;
export type Verification = Schemas['VerificationOut'];
/** A feature switch of the company's plan (apps/plans/rules.py FEATURES). */
export type PlanFeature = keyof Schemas['PlanFeaturesOut'];

const VERIFICATION = [{ type: 'Client' as const, id: 'VERIFICATION' }];

/** The company: sign-up (root domain), its settings and API key, its email verification, and
 * deleting it. */
export const companyApi = api.injectEndpoints({
  endpoints: (build) => ({
    registerClient: build.mutation<RootComponents['schemas']['RegisterClientOut'], SignUp>({
      query: (body) => ({ url: 'auth/register-client', method: 'POST', body }),
    }),
    getClientInfo: build.query<ClientInfo, void>({
      query: () => 'client/info',
      transformResponse: (r: Schemas['ClientInfoOut']) => r.data,
      providesTags: ['Client'],
    }),
    updateClientInfo: build.mutation<Schemas['ClientInfoOut'], CompanyUpdate>({
      query: (body) => ({ url: 'client/info', method: 'PUT', body }),
      invalidatesTags: ['Client', 'Analytics'],
    }),
    rotateApiKey: build.mutation<Schemas['ApiKeyRotatedOut'], void>({
      query: () => ({ url: 'client/api-key/rotate', method: 'POST' }),
      invalidatesTags: ['Client'],
    }),
    deleteCompany: build.mutation<Schemas['MessageOut'], { confirmSubdomain: string; password: string }>({
      query: (body) => ({ url: 'client/delete', method: 'POST', body }),
    }),
    getVerification: build.query<Verification, void>({
      query: () => 'client/verification',
      providesTags: VERIFICATION,
    }),
    resendVerification: build.mutation<Schemas['MessageOut'], void>({
      query: () => ({ url: 'client/verification/resend', method: 'POST' }),
      invalidatesTags: VERIFICATION,
    }),
    verifyEmail: build.mutation<Schemas['MessageOut'], { token: string }>({
      query: (body) => ({ url: 'client/verify-email', method: 'POST', body }),
      invalidatesTags: VERIFICATION,
    }),
  }),
});

export const {
  useRegisterClientMutation,
  useGetClientInfoQuery,
  useUpdateClientInfoMutation,
  useRotateApiKeyMutation,
  useDeleteCompanyMutation,
  useGetVerificationQuery,
  useResendVerificationMutation,
  useVerifyEmailMutation,
} = companyApi;

/** Whether the company's plan includes `feature` (true until the server has answered: the server
 *  refuses what is off with 403 `plan_feature` anyway). */
export function useFeatureEnabled(feature: PlanFeature): boolean {
  const { data } = useGetClientInfoQuery();
  return data?.company.features?.[feature] ?? true;
}
