import { Center, Modal, Stack, Text } from '@mantine/core';
import { QRCodeSVG } from 'qrcode.react';

/** spec 2 §2, §9: the payment URL as a QR code, size 256, low error correction. */
export function QrCodeDialog({ url, opened, onClose }: { url: string; opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Payment QR code" centered>
      <Stack align="center">
        <Center>
          <QRCodeSVG value={url} size={256} level="L" role="img" aria-label={`QR code of ${url}`} />
        </Center>
        <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
          {url}
        </Text>
      </Stack>
    </Modal>
  );
}
