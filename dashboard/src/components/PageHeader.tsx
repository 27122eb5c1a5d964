import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { SearchBox } from './search/SearchBox';
import type { SearchVariant } from './search/searchRows';

export interface HeaderAction {
  label: string;
  icon?: ReactNode;
  to?: string;
  onClick?: () => void;
  disabled?: boolean;
}

interface Props {
  title: ReactNode;
  description?: ReactNode;
  /** Search variant, or false to hide the search box. */
  search?: SearchVariant | false;
  searchPlaceholder?: string;
  iconButton?: { icon: ReactNode; label: string; onClick: () => void };
  action?: HeaderAction;
}

export function PageHeader({ title, description, search = 'all', searchPlaceholder, iconButton, action }: Props) {
  const searchBox = search ? <SearchBox variant={search} placeholder={searchPlaceholder} /> : null;
  return (
    <header className="stack" style={{ gap: 12 }}>
      <div className="page-header">
        <div className="page-header-title">
          <h1>{title}</h1>
          {description ? <p className="muted" style={{ margin: '4px 0 0' }}>{description}</p> : null}
        </div>
        <div className="page-header-actions">
          {searchBox ? <div className="page-header-search-desktop">{searchBox}</div> : null}
          {iconButton ? (
            <button type="button" className="btn btn-secondary btn-icon" aria-label={iconButton.label} title={iconButton.label} onClick={iconButton.onClick}>
              {iconButton.icon}
            </button>
          ) : null}
          {action ? (
            action.to ? (
              <Link className="btn btn-primary" to={action.to}>
                {action.icon}
                {action.label}
              </Link>
            ) : (
              <button type="button" className="btn btn-primary" onClick={action.onClick} disabled={action.disabled}>
                {action.icon}
                {action.label}
              </button>
            )
          ) : null}
        </div>
      </div>
      {searchBox ? (
        <div className="page-header-search-mobile">
          <SearchBox variant={search || 'all'} placeholder={searchPlaceholder} />
        </div>
      ) : null}
    </header>
  );
}
