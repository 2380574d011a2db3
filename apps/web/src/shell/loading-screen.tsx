import { Skeleton, Stack, Text } from '@mantine/core';
import { productName } from '@/ui/page-title';

/**
 * spec 1 §2.3: the word Loading followed by the short product name. Not a bare
 * spinner but the shell's frame with its page's bones. The whole window (`inline` false) repeats
 * index.html's boot shell, class for class (its styles are inline there), so the frame painted
 * before the scripts came stays as it is until the shell itself renders; `inline` is the page
 * area's part alone, inside the shell.
 */
export function LoadingScreen({ inline = false }: { inline?: boolean }) {
  if (inline) {
    return (
      <Stack gap="md" data-loading-page>
        <Skeleton h={28} w="40%" maw={240} />
        <Text c="dimmed" size="sm" role="status" aria-live="polite">
          Loading {productName}
        </Text>
        <Skeleton h={96} radius="md" />
        <Skeleton h={240} radius="md" />
      </Stack>
    );
  }
  return (
    <div className="boot-shell" data-boot-shell>
      <div className="boot-header">
        <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
          <rect width="32" height="32" rx="7" fill="#3b5bdb" />
          <path d="M10 7h4v14h9v4H10z" fill="#fff" />
        </svg>
        <span className="boot-name">{productName}</span>
        <div className="boot-bone" />
      </div>
      <div className="boot-nav">
        {Array.from({ length: 6 }, (_, index) => (
          <div key={index} className="boot-bone" />
        ))}
      </div>
      <div className="boot-main">
        <div className="boot-bone boot-title" />
        <p className="boot-status" role="status" aria-live="polite">
          Loading {productName}
        </p>
        <div className="boot-bone boot-block" />
        <div className="boot-bone boot-block tall" />
      </div>
    </div>
  );
}
