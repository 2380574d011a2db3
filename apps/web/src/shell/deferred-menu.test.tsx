import { Menu } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MantineProvider } from '@mantine/core';
import { theme } from '@/app/theme';
import { DeferredMenu, type LoadedMenuProps } from './deferred-menu';

function LoadedMenu({ target, defaultOpened }: LoadedMenuProps) {
  return (
    <Menu defaultOpened={defaultOpened}>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Item>First item</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function renderMenu() {
  let finish: () => void = () => {};
  const load = vi.fn(
    () =>
      new Promise<typeof LoadedMenu>((resolve) => {
        finish = () => resolve(LoadedMenu);
      }),
  );
  render(
    <MantineProvider theme={theme} env="test">
      <DeferredMenu target={<button type="button">Open</button>} load={load} />
    </MantineProvider>,
  );
  return { load, finish: () => finish() };
}

// docs/decisions/085-first-load-under-170-kb.md "First load under 170 KB": the top bar's menus load on first use.
describe('DeferredMenu', () => {
  it('shows only its button, marked as opening a menu, until it is used', () => {
    const { load } = renderMenu();
    const button = screen.getByRole('button', { name: 'Open' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(load).not.toHaveBeenCalled();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('fetches the menu when the button is pointed at or focused', async () => {
    const { load } = renderMenu();
    await userEvent.hover(screen.getByRole('button', { name: 'Open' }));
    expect(load).toHaveBeenCalled();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('opens the menu once it has loaded when the button was clicked before', async () => {
    const { finish } = renderMenu();
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    finish();
    expect(await screen.findByRole('menuitem', { name: 'First item' })).toBeInTheDocument();
    // From then on the loaded menu owns the button: Escape closes it, a click opens it again.
    await userEvent.keyboard('{Escape}');
    await vi.waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('menuitem', { name: 'First item' })).toBeInTheDocument();
  });

  it('leaves the button to try again when the menu could not load', async () => {
    let offline = true;
    const load = vi.fn(() =>
      offline ? Promise.reject(new Error('offline')) : Promise.resolve(LoadedMenu),
    );
    render(
      <MantineProvider theme={theme} env="test">
        <DeferredMenu target={<button type="button">Open</button>} load={load} />
      </MantineProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    await vi.waitFor(() => expect(load).toHaveBeenCalled());
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    offline = false;
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('menuitem', { name: 'First item' })).toBeInTheDocument();
  });
});
