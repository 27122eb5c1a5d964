import { useDispatch, useSelector } from 'react-redux';
import type { Action, ThunkDispatch } from '@reduxjs/toolkit';
import type { SessionState } from './session';

/** The part of the root state that shared code relies on (the app's store has more). */
export interface BaseState {
  session: SessionState;
}

export const useAppDispatch = useDispatch.withTypes<ThunkDispatch<BaseState, unknown, Action>>();
export const useAppSelector = useSelector.withTypes<BaseState>();
