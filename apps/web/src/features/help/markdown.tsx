import { Code, List, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/*
 * The user guide is written in Markdown (guides/*.md, readable as they are in the repository) and
 * drawn here with the few constructs it uses: # and ## headings, paragraphs, - and 1. lists,
 * **bold** and `code`. Each becomes a React element, never HTML, so a guide cannot inject markup.
 */

type Block =
  | { kind: 'heading'; level: 1 | 2; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] };

const listItem = /^(?:- |\d+\. )/;

/** Lines → blocks: a blank line ends a block; an indented line continues a list item. */
export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  let current: Block | null = null;
  const close = () => {
    if (current) blocks.push(current);
    current = null;
  };
  for (const line of source.split('\n')) {
    const trimmed = line.trim();
    const heading = /^(#{1,2}) (.*)$/.exec(line);
    if (trimmed === '') close();
    else if (heading) {
      close();
      blocks.push({ kind: 'heading', level: heading[1]!.length as 1 | 2, text: heading[2]! });
    } else if (listItem.test(line)) {
      const ordered = !line.startsWith('- ');
      if (current?.kind !== 'list' || current.ordered !== ordered) {
        close();
        current = { kind: 'list', ordered, items: [] };
      }
      current.items.push(line.replace(listItem, ''));
    } else if (current?.kind === 'list' && line.startsWith(' ')) {
      current.items[current.items.length - 1] += ` ${trimmed}`;
    } else if (current?.kind === 'paragraph') {
      current.text += ` ${trimmed}`;
    } else {
      close();
      current = { kind: 'paragraph', text: trimmed };
    }
  }
  close();
  return blocks;
}

/** **bold** and `code` inside a line of text. */
function inline(text: string): ReactNode[] {
  return text.split(/(\*\*[^*]+\*\*|`[^`]+`)/).map((part, index) => {
    if (part.startsWith('**') && part.endsWith('**') && part.length > 4) {
      return <strong key={index}>{part.slice(2, -2)}</strong>;
    }
    if (part.startsWith('`') && part.endsWith('`') && part.length > 2) {
      return <Code key={index}>{part.slice(1, -1)}</Code>;
    }
    return part;
  });
}

export function Markdown({ source }: { source: string }) {
  return parseMarkdown(source).map((block, index) => {
    switch (block.kind) {
      case 'heading':
        return (
          <Title
            key={index}
            order={block.level === 1 ? 2 : 3}
            mt={block.level === 1 ? 0 : 'lg'}
            mb="xs"
          >
            {inline(block.text)}
          </Title>
        );
      case 'paragraph':
        return (
          <Text key={index} mb="sm">
            {inline(block.text)}
          </Text>
        );
      case 'list':
        return (
          <List key={index} type={block.ordered ? 'ordered' : 'unordered'} mb="sm" spacing={4}>
            {block.items.map((item, itemIndex) => (
              <List.Item key={itemIndex}>{inline(item)}</List.Item>
            ))}
          </List>
        );
    }
  });
}
