import { PAGE, withKind } from '../kinds';
import { PostCreate } from './PostCreate';
import { PostEdit } from './PostEdit';
import { PostHistory } from './PostHistory';
import { PostsList } from './PostsList';

/** The pages of the website (About, Contact): the posts' screens and editor for the page kind
 *  (/dashboard/pages, /dashboard/pages/new, /dashboard/pages/{id}, its history). */
export const PagesList = withKind(PAGE, PostsList);
export const PageCreate = withKind(PAGE, PostCreate);
export const PageEdit = withKind(PAGE, PostEdit);
export const PageHistory = withKind(PAGE, PostHistory);
