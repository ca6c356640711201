/**
 * The image preview dialog (issue 16 §2, spec §9 "image preview 3 per row"): images in a grid of 3 per row;
 * each is a focusable button (arrow keys move between them, Enter/Space enlarges one, Escape closes), with
 * its alt text. Used for IP camera stills; reusable for device images (props only, no feature state).
 */
import { useRef, useState, type KeyboardEvent } from 'react';
import { Image, Modal, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import '../i18n';

/** §9: images per row in the preview. */
export const IMAGES_PER_ROW = 3;

export interface PreviewImage {
  /** A data: or http(s): URL. */
  src: string;
  alt: string;
  caption?: string;
}

export interface ImagePreviewDialogProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  images: readonly PreviewImage[];
}

export function ImagePreviewDialog({ opened, onClose, title, images }: ImagePreviewDialogProps) {
  const { t } = useTranslation();
  const [big, setBig] = useState<number | null>(null);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const move = (i: number, e: KeyboardEvent) => {
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: IMAGES_PER_ROW, ArrowUp: -IMAGES_PER_ROW }[e.key];
    if (!step) return;
    e.preventDefault();
    const next = Math.min(images.length - 1, Math.max(0, i + step));
    refs.current[next]?.focus();
  };
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="xl" data-testid="image-preview">
      <Stack>
        {big !== null && images[big] ? (
          <figure style={{ margin: 0 }}>
            <Image src={images[big].src} alt={images[big].alt} data-testid="image-preview-large" />
            <Text size="sm" component="figcaption">
              {t('ipCameras.imageOf', { n: big + 1, total: images.length })}
              {images[big].caption ? ` — ${images[big].caption}` : ''}
            </Text>
          </figure>
        ) : null}
        <SimpleGrid cols={IMAGES_PER_ROW} spacing="sm" role="list" data-testid="image-preview-grid">
          {images.map((img, i) => (
            <div role="listitem" key={`${i}-${img.src.slice(-16)}`}>
              <UnstyledButton
                ref={(el) => {
                  refs.current[i] = el;
                }}
                onClick={() => setBig(i)}
                onKeyDown={(e) => move(i, e)}
                aria-label={`${img.alt} (${t('ipCameras.imageOf', { n: i + 1, total: images.length })})`}
                aria-pressed={big === i}
                data-testid={`image-preview-item-${i}`}
              >
                <Image src={img.src} alt="" radius="sm" />
                {img.caption ? <Text size="xs">{img.caption}</Text> : null}
              </UnstyledButton>
            </div>
          ))}
        </SimpleGrid>
      </Stack>
    </Modal>
  );
}
