/** The download feature's texts (fr). */
import type { DownloadTranslation } from './en';

export const fr: DownloadTranslation = {
  title: 'Téléchargement',
  intro:
    'Installez le client d’appareil sur un ordinateur x86 ou un NVIDIA Jetson pour le relier à cette console.',
  loading: 'Chargement…',
  failed: 'La page de téléchargement n’a pas pu être lue : {{error}}',
  retry: 'Réessayer',
  release: 'Client d’appareil',
  version: 'Version {{version}}',
  size: 'Taille',
  sha256: 'SHA-256',
  published: 'Publié le {{date}}',
  noRelease:
    'Ce serveur ne publie encore aucune version du client : un administrateur en publie une (Logiciel).',
  requirements: 'Ce dont l’appareil a besoin',
  x86: 'Ordinateur x86',
  jetson: 'NVIDIA Jetson',
  reqNode: 'Node.js {{version}} ou plus récent, avec npm',
  reqTools: 'curl, tar et sha256sum (pour l’installateur)',
  reqFfmpeg: 'ffmpeg (caméras : USB/V4L2, RTSP, fichiers)',
  reqDocker: 'Docker (conteneurs et moteurs d’inférence)',
  reqGpu: 'Pilote NVIDIA et NVIDIA Container Toolkit pour un GPU (facultatif)',
  reqJetpack: 'JetPack 5 ou 6 (L4T), avec son Docker et le runtime NVIDIA',
  reqJtop: 'jtop (jetson-stats) pour des métriques Jetson détaillées (facultatif)',
  addDevice: 'Ajouter un appareil',
  addIntro:
    'Nommez l’appareil : la console le crée avec son jeton et vous donne la commande à lancer dessus.',
  deviceName: 'Nom de l’appareil',
  kind: 'Type d’appareil',
  nameRequired: 'Saisissez un nom pour l’appareil.',
  create: 'Créer l’appareil et la commande',
  createFailed: 'L’appareil n’a pas pu être créé : {{error}}',
  created: 'Appareil {{name}} créé',
  tokenOnce:
    'La commande contient le jeton de l’appareil. Elle n’est affichée qu’une fois : copiez-la maintenant. Le jeton est valable 60 jours.',
  curlTitle: 'Installation en une ligne (lance le script d’installation)',
  curlHelp:
    'À lancer sur l’appareil : vérifie les prérequis, télécharge le client, vérifie son SHA-256 et le démarre.',
  npmTitle: 'Depuis une copie du dépôt de la console',
  npmHelp: 'À lancer dans le dépôt sur l’appareil après npm install.',
  copyCurl: 'Copier la commande d’installation',
  copyNpm: 'Copier la commande npm',
  another: 'Ajouter un autre appareil',
  openDevices: 'Aller aux appareils',
  generated: 'Généré !',
};
