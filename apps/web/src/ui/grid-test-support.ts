/**
 * For tests only; call once in a test file that renders a DataGrid. jsdom lacks two things
 * mantine-datatable needs: `matchMedia('')` must match (a column shows while its default
 * visibleMediaQuery matches, and the stub of test/setup.ts answers false to every query), and
 * elements must have scrollTo (a page change scrolls the grid to its top).
 */
export function prepareGridTests(): void {
  const stub = window.matchMedia;
  window.matchMedia = (query: string) => {
    const list = stub(query);
    return query === '' ? { ...list, matches: true } : list;
  };
  if (!Element.prototype.scrollTo) Element.prototype.scrollTo = () => {};
}
