/** /profile/keys-secrets (spec §2 Profile; issue 13): API keys and device tokens. Test id: keys-screen. */
import { useTranslation } from 'react-i18next';
import '../i18n';
import { ApiKeysPanel } from './ApiKeysPanel';
import { DeviceTokensPanel } from './DeviceTokensPanel';
import { ProfilePage } from './ProfileNav';

export default function KeysSecretsScreen() {
  const { t } = useTranslation();
  return (
    <ProfilePage title={t('profile.keys.title')} testId="keys-screen">
      <ApiKeysPanel />
      <DeviceTokensPanel />
    </ProfilePage>
  );
}
