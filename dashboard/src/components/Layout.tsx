import { useEffect, useState } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import {
  FileText,
  Folder,
  Image,
  LayoutDashboard,
  LogOut,
  PanelLeftClose,
  PanelLeftOpen,
  Settings,
  Sparkles,
  Tag,
  Users,
} from 'lucide-react';
import { useAppDispatch, useAppSelector } from '@/lib/hooks';
import { loggedOut, selectUser } from '@/lib/session';

const NAV = [
  { to: '/dashboard', label: 'Dashboard', icon: LayoutDashboard, end: true },
  { to: '/dashboard/posts', label: 'Posts', icon: FileText },
  { to: '/dashboard/categories', label: 'Categories', icon: Folder },
  { to: '/dashboard/tags', label: 'Tags', icon: Tag },
  { to: '/dashboard/media', label: 'Media', icon: Image },
  { to: '/dashboard/ai-generator', label: 'AI Blog Generator', icon: Sparkles },
  { to: '/dashboard/users', label: 'Users', icon: Users, adminOnly: true },
  { to: '/dashboard/settings', label: 'Settings', icon: Settings },
];

const COLLAPSED_KEY = 'sidebarCollapsed';
const SMALL_SCREEN = '(max-width: 768px)';

const isSmallScreen = () => window.matchMedia(SMALL_SCREEN).matches;

export function Layout() {
  const user = useAppSelector(selectUser);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(COLLAPSED_KEY) === '1' || isSmallScreen());

  // On small screens the open sidebar covers the page: close it when the screen shrinks.
  useEffect(() => {
    const query = window.matchMedia(SMALL_SCREEN);
    const onChange = () => {
      if (query.matches) setCollapsed(true);
    };
    query.addEventListener?.('change', onChange);
    return () => query.removeEventListener?.('change', onChange);
  }, []);

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

  return (
    <div className="shell">
      <aside
        className={collapsed ? 'sidebar collapsed' : 'sidebar'}
        style={{ width: collapsed ? 70 : 250 }}
        aria-label="Sidebar"
        data-collapsed={collapsed}
      >
        <div className="sidebar-top">
          {!collapsed ? <span className="sidebar-brand">Headless CMS</span> : null}
          <button
            type="button"
            className="sidebar-toggle"
            aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
            onClick={toggle}
          >
            {collapsed ? <PanelLeftOpen size={18} /> : <PanelLeftClose size={18} />}
          </button>
        </div>
        <nav aria-label="Main">
          {NAV.filter((n) => !n.adminOnly || user?.role === 'admin').map(({ to, label, icon: Icon, end }) => (
            <NavLink
              key={to}
              to={to}
              end={end}
              className="nav-link"
              title={collapsed ? label : undefined}
              onClick={() => {
                if (isSmallScreen()) setCollapsed(true);
              }}
            >
              <Icon size={18} aria-hidden="true" />
              {collapsed ? <span className="sr-only">{label}</span> : <span>{label}</span>}
            </NavLink>
          ))}
        </nav>
        <div className="sidebar-user">
          <div className="avatar" aria-hidden="true">
            {(user?.username ?? '?').charAt(0).toUpperCase()}
          </div>
          {!collapsed ? (
            <div className="sidebar-user-info">
              <div className="name">{user?.username}</div>
              <div className="role">{user?.role}</div>
            </div>
          ) : null}
          <button type="button" className="sidebar-toggle" onClick={logout} aria-label="Logout" title="Logout">
            <LogOut size={18} />
          </button>
        </div>
      </aside>
      <main className="main">
        <Outlet />
      </main>
    </div>
  );
}
