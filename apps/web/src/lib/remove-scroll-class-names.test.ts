import { RemoveScroll as library } from 'react-remove-scroll';
import { describe, expect, it } from 'vitest';
import { RemoveScroll } from './remove-scroll-class-names';

describe("AppShell's scroll-lock class names", () => {
  it('are the ones react-remove-scroll styles when a dialog locks the page', () => {
    expect(RemoveScroll.classNames).toEqual(library.classNames);
  });
});
