import { UserEdit } from './UserEdit';

/** My account: every signed-in user's own record (username, email, password with the current
 *  password). Reached from the sidebar's user block; saving stays here. */
export function MyAccount() {
  return <UserEdit self />;
}
