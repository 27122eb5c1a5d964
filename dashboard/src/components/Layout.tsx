import { useEffect, useRef, useState, type ReactNode } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import {
  Activity,
  ArrowLeftRight,
  FileText,
  Files,
  Folder,
  Image,
  LayoutDashboard,
  LogOut,
  Menu,
  PanelLeftClose,
  PanelLeftOpen,
  Settings,
  Sparkles,
  Tag,
  Users,
  UsersRound,
  X,
} from 'lucide-react';
import { useCapabilities, type Capability } from '@/api/session';
import { useAppDispatch, useAppSelector } from '@/lib/hooks';
import { loggedOut, selectUser } from '@/lib/session';
import { useFocusTrap } from './focus';
import { ToastNavigation } from './notify';
import { SupportBanner } from './SupportBanner';
import { TrialBanner } from './TrialBanner';
import { VerificationBanner } from './VerificationBanner';

const NAV: { to: string; label: string; icon: typeof Users; end?: boolean; needs?: Capability }[] = [
  { to: '/dashboard', label: 'Dashboard', icon: LayoutDashboard, end: true },
  { to: '/dashboard/posts', label: 'Posts', icon: FileText },
  { to: '/dashboard/pages', label: 'Pages', icon: Files },
  { to: '/dashboard/categories', label: 'Categories', icon: Folder },
  { to: '/dashboard/tags', label: 'Tags', icon: Tag },
  { to: '/dashboard/media', label: 'Media', icon: Image },
  { to: '/dashboard/members', label: 'Members', icon: UsersRound, needs: 'members.read' },
  { to: '/dashboard/ai-generator', label: 'AI Blog Generator', icon: Sparkles },
  { to: '/dashboard/users', label: 'Users', icon: Users, needs: 'users.manage' },
  { to: '/dashboard/activity', label: 'Activity', icon: Activity, needs: 'audit.read' },
  { to: '/dashboard/import-export', label: 'Import & export', icon: ArrowLeftRight, needs: 'settings.manage' },
  { to: '/dashboard/settings', label: 'Settings', icon: Settings },
];

const COLLAPSED_KEY = 'sidebarCollapsed';
/** Below this width the sidebar is a drawer behind a menu button; above it, the 70/250 px rail. */
export const PHONE = '(max-width: 767px)';

function useMedia(query: string) {
  const [matches, setMatches] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const onChange = () => setMatches(list.matches);
    list.addEventListener?.('change', onChange);
    return () => list.removeEventListener?.('change', onChange);
  }, [query]);
  return matches;
}

/** `banner`: a notice above every dashboard page (given by the app: the layout knows no feature). */
export function Layout({ banner }: { banner?: ReactNode } = {}) {
  const user = useAppSelector(selectUser);
  const { capabilities } = useCapabilities();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const phone = useMedia(PHONE);
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(COLLAPSED_KEY) === '1');
  const [drawerOpen, setDrawerOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const drawer = useFocusTrap<HTMLElement>(phone && drawerOpen, () => setDrawerOpen(false));

  // A new screen, or a wider window, closes the drawer.
  useEffect(() => setDrawerOpen(false), [location.pathname, phone]);

  function toggle() {
    setCollapsed((c) => {
      localStorage.setItem(COLLAPSED_KEY, c ? '0' : '1');
      return !c;
    });
  }

  function logout() {
    dispatch(loggedOut());
    navigate('/login', { replace: true });
  }

  const rail = !phone && collapsed;
  const asideClass = phone ? `sidebar drawer${drawerOpen ? ' open' : ''}` : rail ? 'sidebar collapsed' : 'sidebar';

  return (
    <div className="shell">
      <ToastNavigation />
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      {phone ? (
        <div className="topbar">
          <button
            ref={menuButton}
            type="button"
            className="topbar-menu"
            aria-label="Open menu"
            aria-expanded={drawerOpen}
            aria-controls="sidebar"
            onClick={() => setDrawerOpen(true)}
          >
            <Menu size={22} />
          </button>
          <span className="sidebar-brand">Headless CMS</span>
        </div>
      ) : null}
      {phone && drawerOpen ? <div className="drawer-backdrop" onClick={() => setDrawerOpen(false)} aria-hidden="true" /> : null}
      <aside
        id="sidebar"
        ref={drawer}
        className={asideClass}
        style={phone ? undefined : { width: rail ? 70 : 250 }}
        aria-label="Sidebar"
        data-collapsed={rail}
        hidden={phone && !drawerOpen ? true : undefined}
        {...(phone ? { role: 'dialog', 'aria-modal': true } : {})}
      >
        <div className="sidebar-top">
          {!rail ? <span className="sidebar-brand">Headless CMS</span> : null}
          {phone ? (
            <button type="button" className="sidebar-toggle" aria-label="Close menu" onClick={() => setDrawerOpen(false)}>
              <X size={18} />
            </button>
          ) : (
            <button type="button" className="sidebar-toggle" aria-label={rail ? 'Expand sidebar' : 'Collapse sidebar'} onClick={toggle}>
              {rail ? <PanelLeftOpen size={18} /> : <PanelLeftClose size={18} />}
            </button>
          )}
        </div>
        <nav aria-label="Main">
          {NAV.filter((n) => !n.needs || capabilities.has(n.needs)).map(({ to, label, icon: Icon, end }) => (
            <NavLink key={to} to={to} end={end} className="nav-link" title={rail ? label : undefined}>
              <Icon size={18} aria-hidden="true" />
              {rail ? <span className="sr-only">{label}</span> : <span>{label}</span>}
            </NavLink>
          ))}
        </nav>
        <div className="sidebar-user">
          <div className="avatar" aria-hidden="true">
            {(user?.username ?? '?').charAt(0).toUpperCase()}
          </div>
          {!rail ? (
            <NavLink to="/dashboard/account" className="sidebar-user-info">
              <span className="sr-only">My account: </span>
              <div className="name">{user?.username}</div>
              <div className="role">{user?.role}</div>
            </NavLink>
          ) : (
            <NavLink to="/dashboard/account" className="sr-only">
              My account
            </NavLink>
          )}
          <button type="button" className="sidebar-toggle" onClick={logout} aria-label="Logout" title="Logout">
            <LogOut size={18} />
          </button>
        </div>
      </aside>
      <main className="main" id="main" tabIndex={-1}>
        <SupportBanner />
        <TrialBanner />
        <VerificationBanner />
        {banner}
        <Outlet />
      </main>
    </div>
  );
}
