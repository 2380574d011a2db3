import type { MouseEvent } from 'react';
import classes from './skip-link.module.css';

/** The id of the shell's main content, where the skip link leads. */
export const mainContentId = 'main-content';

/** The class that keeps the main content free of a focus ring once the skip link focused it. */
export const mainContentClass = classes.main;

/**
 * "Skip to content": the first tab stop of every page, hidden until focused, that moves the focus
 * past the top bar and the side menu to the page (WCAG 2.4.1). The click moves
 * the focus itself rather than following the #hash, so the router sees no navigation and the
 * next Tab goes on from the content.
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(mainContentId);
    if (!main) return;
    event.preventDefault();
    main.focus();
  };
  return (
    <a href={`#${mainContentId}`} className={classes.skipLink} onClick={skip}>
      Skip to content
    </a>
  );
}
