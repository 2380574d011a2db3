import { Anchor, Group, Image, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useCompanyLogo } from '@/lib/api/get-company-settings';
import { productName } from '@/ui/page-title';

/** The company's own logo (Settings › Customisation), beside the product's mark. */
export function CompanyLogo() {
  const logo = useCompanyLogo();
  if (!logo) return null;
  return (
    <Image
      src={logo}
      alt="Company logo"
      h={32}
      w="auto"
      maw={160}
      // A phone keeps its top bar for the menus.
      visibleFrom="xs"
      fit="contain"
      data-testid="company-logo"
    />
  );
}

/** The product mark (the drawing of public/favicon.svg) and name, linking home. */
export function Logo() {
  return (
    <Anchor component={Link} to="/" underline="never" c="inherit" aria-label={productName}>
      <Group gap={8} wrap="nowrap">
        <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
          <rect width="32" height="32" rx="7" fill="var(--mantine-primary-color-filled)" />
          <path d="M10 7h4v14h9v4H10z" fill="#fff" />
        </svg>
        <Text fw={700} size="lg" visibleFrom="xs">
          {productName}
        </Text>
      </Group>
    </Anchor>
  );
}
