import { ActionIcon, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useEffect, useState } from 'react';

interface CopyButtonProps {
  value: string;
  /** What is copied, for the accessible name ("Copy company id"). */
  label?: string;
}

/** spec 2 §8: the success toast of a copy. */
export const copiedMessage = 'Copied to clipboard';
/** A browser that refuses the clipboard (no permission, an insecure page) says so too. */
export const copyFailedMessage = 'The browser did not allow copying to the clipboard.';
const copiedForMs = 2000;

/** Copies a value and says so in a toast (spec 2 §8 'copied to clipboard'), wherever a value is copied. */
export function CopyButton({ value, label = 'value' }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), copiedForMs);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      notifications.show({ color: 'red', message: copyFailedMessage });
      return;
    }
    setCopied(true);
    notifications.show({ color: 'green', message: copiedMessage });
  };

  return (
    <Tooltip label={copied ? copiedMessage : `Copy ${label}`} withArrow position="right">
      <ActionIcon
        color={copied ? 'teal' : 'gray'}
        variant="subtle"
        onClick={() => void copy()}
        aria-label={`Copy ${label}`}
      >
        {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
      </ActionIcon>
    </Tooltip>
  );
}
