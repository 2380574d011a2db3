import classes from './scrolling-tabs.module.css';

/** Tabs' classNames for a tab list that scrolls sideways on a narrow screen. */
export const scrollingTabs = { list: classes.list, tab: classes.tab };
