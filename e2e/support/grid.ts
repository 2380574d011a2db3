import type { Locator, Page } from 'playwright-core';

// The site's grids (mantine-datatable through ui/data-grid.tsx): rows, and the column filters
// whose header buttons the grid names 'Filter <column title>'.

/** The body rows of a grid, without the header row. */
export function bodyRows(grid: Locator): Locator {
  return grid.locator('tbody').getByRole('row');
}

const filterButton = (grid: Locator, column: string) =>
  grid.getByRole('button', { name: `Filter ${column}`, exact: true });

/** The popover of a column filter, opened from its header button. */
async function openFilter(page: Page, grid: Locator, column: string): Promise<Locator> {
  await filterButton(grid, column).click();
  const popover = page
    .getByRole('dialog')
    .filter({ has: page.getByRole('button', { name: 'Clear filter' }) });
  await popover.waitFor();
  return popover;
}

/** Chooses `option` in a select filter ('Status' → 'Pending') and closes the popover. */
export async function chooseFilter(
  page: Page,
  grid: Locator,
  column: string,
  option: string,
): Promise<void> {
  const popover = await openFilter(page, grid, column);
  await popover.getByRole('textbox', { name: column, exact: true }).click();
  await popover.getByRole('option', { name: option, exact: true }).click();
  // A click elsewhere closes it (the page's title: nothing happens there). Not the header button:
  // mantine-datatable closes on its mousedown outside the popover, then the click opens it again.
  await page.getByRole('heading', { level: 1 }).first().click();
  await popover.waitFor({ state: 'hidden' });
}

/** Clears a column's filter from its popover. */
export async function clearFilter(page: Page, grid: Locator, column: string): Promise<void> {
  const popover = await openFilter(page, grid, column);
  await popover.getByRole('button', { name: 'Clear filter' }).click();
  await popover.waitFor({ state: 'hidden' });
}

/** Types into a text filter ('Reference' → 'Reference contains') and closes the popover. */
export async function typeFilter(
  page: Page,
  grid: Locator,
  column: string,
  text: string,
): Promise<void> {
  const popover = await openFilter(page, grid, column);
  const input = popover.getByRole('textbox', { name: `${column} contains`, exact: true });
  await input.fill(text);
  // Enter applies it at once instead of after the typing pause.
  await input.press('Enter');
  await page.getByRole('heading', { level: 1 }).first().click();
  await popover.waitFor({ state: 'hidden' });
}
