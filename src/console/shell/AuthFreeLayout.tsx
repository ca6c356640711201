/** The auth-free layout of §2 (login, register, password reset, 404, expired): a centred column. */
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { Box, Container, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { RouteFallback } from './RouteFallback';

export function AuthFreeLayout() {
  const { t } = useTranslation();
  return (
    <Box mih="100vh" bg="var(--mantine-color-gray-0)">
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <Box component="header" py="md" px="lg">
        <Text component="div" fw={700} size="xl">
          {t('app.title')}
        </Text>
      </Box>
      <Container component="main" id="main" size="sm" py="lg" tabIndex={-1}>
        <Suspense fallback={<RouteFallback />}>
          <Outlet />
        </Suspense>
      </Container>
    </Box>
  );
}
