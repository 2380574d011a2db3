import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { guides } from '../guides';
import { Markdown, parseMarkdown } from '../markdown';
import { GuidePage, HelpPage } from './help-page';

/** spec 1 §2.2: "The top bar has a Help menu linking to external documentation". */
describe('User guide', () => {
  it('lists a guide for each area', () => {
    renderWithProviders(<HelpPage />, { path: '/help' });
    expect(screen.getByRole('heading', { name: 'User guide' })).toBeInTheDocument();
    const titles = [
      'Getting started',
      'Payment requests',
      'Payments and refunds',
      'Invoices and accounts',
      'Settings',
      'Payment providers',
      'API keys and web hooks',
    ];
    for (const title of titles) {
      const guide = guides.find((each) => each.title === title)!;
      expect(screen.getByRole('link', { name: new RegExp(`^${title}`) })).toHaveAttribute(
        'href',
        `/help/${guide.slug}`,
      );
    }
  });

  it.each(guides.map((guide) => [guide.slug, guide] as const))(
    'shows the %s guide with its headings, text and lists',
    (slug, guide) => {
      renderWithProviders(<GuidePage />, {
        path: `/help/${slug}`,
        routes: [{ path: '/help/:topic', element: <GuidePage /> }],
      });
      const title = /^# (.*)$/m.exec(guide.source)![1]!;
      expect(screen.getByRole('heading', { level: 2, name: title })).toBeInTheDocument();
      // Every guide has sections and more than a line of text.
      expect(screen.getAllByRole('heading', { level: 3 }).length).toBeGreaterThan(0);
      expect(document.body.textContent!.length).toBeGreaterThan(600);
      expect(document.body.textContent).not.toContain('**');
    },
  );

  it('opens a guide from the contents and goes back', async () => {
    renderWithProviders(<HelpPage />, {
      path: '/help',
      routes: [{ path: '/help/:topic', element: <GuidePage /> }],
    });
    await userEvent.click(screen.getByRole('link', { name: /^Payment providers/ }));
    expect(await screen.findByRole('heading', { name: 'Payment providers' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'User guide' })).toHaveAttribute('href', '/help');
  });

  it('says so for a guide that does not exist', () => {
    renderWithProviders(<GuidePage />, {
      path: '/help/nothing-here',
      routes: [{ path: '/help/:topic', element: <GuidePage /> }],
    });
    expect(screen.getByText('There is no guide with this name.')).toBeInTheDocument();
  });
});

describe('parseMarkdown', () => {
  it('reads headings, paragraphs over several lines, lists with continued items', () => {
    const source = [
      '# Title',
      '',
      'A paragraph',
      'on two lines.',
      '',
      '## Steps',
      '',
      '1. First',
      '   continued.',
      '2. Second',
      '- A point',
      '',
    ].join('\n');
    expect(parseMarkdown(source)).toEqual([
      { kind: 'heading', level: 1, text: 'Title' },
      { kind: 'paragraph', text: 'A paragraph on two lines.' },
      { kind: 'heading', level: 2, text: 'Steps' },
      { kind: 'list', ordered: true, items: ['First continued.', 'Second'] },
      { kind: 'list', ordered: false, items: ['A point'] },
    ]);
  });

  it('draws markup in a guide as text, never as HTML', () => {
    const { container } = renderWithProviders(
      <Markdown source={'<img src=x onerror=alert(1)> **bold** and `code`'} />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror=alert(1)> bold and code');
    expect(container.querySelector('strong')).toHaveTextContent('bold');
  });
});
