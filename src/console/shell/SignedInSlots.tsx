/**
 * The root shell's signed-in slots (§2 upload notification, the features' slots such as the stream modal),
 * in their own chunk with their own Mantine provider: they render outside the signed-in layout, and the root
 * has no provider (shell/mantine.tsx).
 */
import { WithMantine } from './mantine';
import { FeatureSlots } from './Slots';

export default function SignedInSlots() {
  return (
    <WithMantine>
      <FeatureSlots />
    </WithMantine>
  );
}
