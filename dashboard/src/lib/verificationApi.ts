import { api } from './api';

export interface Verification {
  success: boolean;
  verified: boolean;
  email: string;
  sentAt: string | null;
}

/** The company's email verification (the dashboard's banner until it is verified). */
export const verificationApi = api.injectEndpoints({
  endpoints: (build) => ({
    getVerification: build.query<Verification, void>({
      query: () => 'client/verification',
      providesTags: [{ type: 'Client', id: 'VERIFICATION' }],
    }),
    resendVerification: build.mutation<{ message: string }, void>({
      query: () => ({ url: 'client/verification/resend', method: 'POST' }),
      invalidatesTags: [{ type: 'Client', id: 'VERIFICATION' }],
    }),
    verifyEmail: build.mutation<{ message: string }, { token: string }>({
      query: (body) => ({ url: 'client/verify-email', method: 'POST', body }),
      invalidatesTags: [{ type: 'Client', id: 'VERIFICATION' }],
    }),
  }),
});

export const { useGetVerificationQuery, useResendVerificationMutation, useVerifyEmailMutation } = verificationApi;
