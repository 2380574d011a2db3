import { Button } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useEffect, useState } from 'react';

/** How long the button waits for the confirming second click. */
export const resetConfirmWindowMs = 5000;

interface ResetDemoDataButtonProps {
  loading: boolean;
  onConfirm: () => void;
}

/** spec 1 §2.7, §4: resetting demo data needs a second click to confirm. */
export function ResetDemoDataButton({ loading, onConfirm }: ResetDemoDataButtonProps) {
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (!confirming) return;
    const timer = window.setTimeout(() => setConfirming(false), resetConfirmWindowMs);
    return () => window.clearTimeout(timer);
  }, [confirming]);

  return (
    <Button
      variant={confirming ? 'filled' : 'light'}
      color={confirming ? 'red' : 'orange'}
      leftSection={<IconRefresh size={16} />}
      loading={loading}
      onClick={() => {
        if (!confirming) {
          setConfirming(true);
          return;
        }
        setConfirming(false);
        onConfirm();
      }}
    >
      {confirming ? 'Click again to confirm' : 'Reset demo data'}
    </Button>
  );
}
