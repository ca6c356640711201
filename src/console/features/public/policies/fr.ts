/** The five policy pages in French (same sections as en.ts). */
import type { PolicyTranslation } from './en';

export const fr: PolicyTranslation = {
  updated: 'Dernière mise à jour : 27 novembre 2026',
  nav: 'Politiques',
  'privacy-policy': {
    title: 'Politique de confidentialité',
    summary:
      'Ce que cette console enregistre sur vous, pourquoi, combien de temps, et ce que vous pouvez demander.',
    sections: [
      {
        heading: 'Responsable',
        paragraphs: [
          'Cette console est exploitée par l’organisation qui fait fonctionner ce serveur (« nous »). Les questions sur vos données passent par la page de contact ; nous répondons sous 30 jours.',
        ],
      },
      {
        heading: 'Ce que nous enregistrons',
        paragraphs: [
          'Votre compte : adresse e-mail, nom d’utilisateur, biographie et photo facultatives, une empreinte argon2id salée de votre mot de passe (jamais le mot de passe lui-même), vos rôles et, si vous activez la connexion à deux facteurs, ce dont elle a besoin (le secret de l’authentificateur et vos codes de récupération, stockés protégés).',
          'Vos appareils et leurs réglages : noms, identifiants, groupes, positions sur la carte, limites de flux, dispositions des caméras, adresses des caméras IP (leurs mots de passe sont chiffrés et transmis seulement à l’appareil qui atteint la caméra), modèles et applications que vous importez ou créez.',
          'Licences et paiements : vos licences, commandes (offre, montant, date) et, si vous le choisissez, adresses de facturation et cartes. D’une carte, nous gardons seulement la marque, les quatre derniers chiffres et la date d’expiration ; le numéro et le code de sécurité ne sont jamais enregistrés. Avec Stripe, la carte est saisie sur la page de Stripe et n’atteint jamais ce serveur.',
          'Les messages envoyés par le formulaire de contact : nom, adresse e-mail, objet et texte.',
        ],
      },
      {
        heading: 'Ce que nous n’enregistrons pas',
        paragraphs: [
          'La vidéo en direct va de pair à pair, de votre appareil à votre navigateur. Elle ne passe par nos serveurs que si un relais (TURN) est nécessaire, chiffrée de bout en bout, et nous ne l’enregistrons pas. Vos enregistrements restent dans votre navigateur ou sur votre appareil.',
        ],
      },
      {
        heading: 'Pourquoi',
        paragraphs: [
          'Pour fournir le service auquel vous avez souscrit (contrat), le sécuriser (intérêt légitime : limitation des tentatives de connexion, journal des actions des administrateurs), facturer vos achats et conserver les justificatifs (obligation légale), et répondre à vos messages.',
        ],
      },
      {
        heading: 'Combien de temps',
        paragraphs: [
          'Les données du compte sont conservées jusqu’à la suppression du compte. Les commandes sont gardées aussi longtemps que l’exige le droit fiscal (en général 10 ans). Les messages de contact sont gardés tant que nous en avons besoin pour vous répondre ; sur demande, nous supprimons les vôtres. Les sessions expirent après 30 jours sans utilisation.',
        ],
      },
      {
        heading: 'Qui d’autre y a accès',
        paragraphs: [
          'Personne, sauf les sous-traitants nécessaires au service : le prestataire de paiement lorsque vous payez (Stripe, s’il est configuré), le prestataire qui distribue nos e-mails, et Google reCAPTCHA sur le formulaire d’inscription lorsqu’il est activé. Nous ne vendons pas de données et ne les utilisons pas pour la publicité.',
        ],
      },
      {
        heading: 'Vos droits',
        paragraphs: [
          'Vous pouvez consulter et corriger vos données dans votre profil, et nous demander par la page de contact une copie, leur rectification ou leur suppression, ou vous opposer à leur utilisation. Vous pouvez aussi saisir votre autorité de protection des données.',
        ],
      },
    ],
  },
  'cookie-policy': {
    title: 'Politique relative aux cookies',
    summary: 'Cette console n’utilise aucun cookie publicitaire ou de suivi.',
    sections: [
      {
        heading: 'Ce que la console garde dans votre navigateur',
        paragraphs: [
          'Vos jetons de connexion et votre langue sont gardés dans le stockage local du navigateur, pour que vous restiez connecté et voyiez la console dans votre langue. Ils sont supprimés à la déconnexion (la langue reste).',
          'Les fichiers en cours d’envoi sont gardés dans l’IndexedDB du navigateur jusqu’à la fin de l’envoi, pour qu’il puisse reprendre après un rechargement.',
        ],
      },
      {
        heading: 'Les cookies que nous déposons',
        paragraphs: [
          'Un seul cookie, uniquement quand vous ouvrez une application web d’un de vos appareils (par exemple JupyterLab) : il prouve que la page est la vôtre, est limité à l’adresse de cette application, ne peut pas être lu par des scripts (HttpOnly, SameSite=Strict) et expire après 8 heures.',
        ],
      },
      {
        heading: 'Les cookies de tiers',
        paragraphs: [
          'La page de paiement de Stripe (quand les paiements passent par Stripe) et Google reCAPTCHA (quand il est activé sur le formulaire d’inscription) déposent leurs propres cookies sur leurs propres domaines, selon leurs propres politiques.',
        ],
      },
      {
        heading: 'Votre choix',
        paragraphs: [
          'Comme nous n’utilisons que ce dont le service a besoin pour fonctionner, il n’y a rien à consentir. Vous pouvez effacer le stockage local et les cookies dans votre navigateur à tout moment ; vous serez alors déconnecté.',
        ],
      },
    ],
  },
  'terms-conditions': {
    title: 'Conditions générales',
    summary: 'L’accord entre vous et nous lorsque vous utilisez cette console.',
    sections: [
      {
        heading: 'Le service',
        paragraphs: [
          'La console vous permet de gérer vos appareils d’IA en périphérie : les voir, vous y connecter, regarder leurs caméras, exécuter des conteneurs et des modèles, et installer le logiciel de l’appareil. Elle ne fonctionne qu’avec des appareils qui vous appartiennent ou que vous êtes autorisé à exploiter.',
        ],
      },
      {
        heading: 'Votre compte',
        paragraphs: [
          'Gardez secrets votre mot de passe et vos jetons d’appareil ; vous répondez de leur usage. Prévenez-nous immédiatement si vous pensez que votre compte est utilisé abusivement. Vous devez avoir au moins 16 ans pour avoir un compte.',
        ],
      },
      {
        heading: 'Offres, licences et paiement',
        paragraphs: [
          'L’offre gratuite est incluse pour chaque appareil. Les licences payantes valent pour un appareil ou pour votre compte, pour la durée indiquée à l’achat, et commencent au paiement (ou à la fin de votre licence en cours de la même offre). Les prix sont affichés avant le paiement. Les licences ne se renouvellent pas automatiquement.',
          'À la fin d’une licence, l’appareil revient à l’offre gratuite : rien n’est supprimé, mais ce que la licence ajoutait s’arrête. Demandez un remboursement par la page de contact ; les consommateurs de l’UE peuvent se rétracter dans les 14 jours suivant un achat.',
        ],
      },
      {
        heading: 'Usage acceptable',
        paragraphs: [
          'Vous devez respecter les règles d’utilisation et la loi, notamment sur la vidéosurveillance et les données personnelles. Nous pouvons suspendre un compte qui met en danger autrui ou le service, et vous en donnerons la raison.',
        ],
      },
      {
        heading: 'Disponibilité et responsabilité',
        paragraphs: [
          'Nous exploitons le service avec soin mais ne pouvons promettre qu’il ne sera jamais interrompu. Nous sommes responsables des dommages causés intentionnellement ou par faute lourde ; sinon, notre responsabilité est limitée au montant que vous nous avez payé au cours des 12 derniers mois.',
        ],
      },
      {
        heading: 'Modifications et fin',
        paragraphs: [
          'Nous vous informons des modifications de ces conditions 30 jours avant leur entrée en vigueur ; vous pouvez fermer votre compte avant. Vous pouvez nous demander à tout moment de fermer votre compte par la page de contact.',
        ],
      },
    ],
  },
  'user-guidelines': {
    title: 'Règles d’utilisation',
    summary: 'Comment utiliser la console de façon sûre et loyale.',
    sections: [
      {
        heading: 'Caméras et personnes',
        paragraphs: [
          'Ne connectez que des caméras que vous avez le droit d’utiliser. Signalez la présence des caméras, ne filmez pas de lieux privés et respectez les règles de votre pays sur la vidéosurveillance et la protection des données. La reconnaissance de visages ou de plaques exige souvent une base légale et une information : vérifiez avant de l’activer.',
        ],
      },
      {
        heading: 'Appareils et accès',
        paragraphs: [
          'N’installez le logiciel de l’appareil que sur des machines que vous administrez. Donnez accès en créant des comptes pour les personnes, pas en partageant votre mot de passe. Remplacez immédiatement un jeton d’appareil qui a pu fuiter ; l’ancien cesse de fonctionner.',
        ],
      },
      {
        heading: 'Modèles et conteneurs',
        paragraphs: [
          'N’importez que des modèles et des images que vous avez le droit d’utiliser, et respectez leurs licences. N’exécutez pas de logiciel qui attaque d’autres systèmes, mine de la cryptomonnaie sur des ressources partagées ou dissimule ce qu’il fait.',
        ],
      },
      {
        heading: 'Usage loyal',
        paragraphs: [
          'Les quotas de flux et les limites de débit gardent le service rapide pour tous : ne les contournez pas. L’accès automatisé passe par des clés d’API avec les seules autorisations nécessaires.',
        ],
      },
      {
        heading: 'Signaler un problème',
        paragraphs: [
          'Signalez les failles de sécurité et les abus par la page de contact. Nous lisons chaque signalement et n’agissons pas contre la recherche en sécurité menée de bonne foi.',
        ],
      },
    ],
  },
  'legal-guidelines': {
    title: 'Mentions légales',
    summary: 'Le cadre juridique du service et comment nous joindre.',
    sections: [
      {
        heading: 'Exploitant',
        paragraphs: [
          'L’exploitant de ce serveur communique son nom, son adresse et ses informations d’immatriculation sur demande par la page de contact ; une installation auto-hébergée est exploitée par l’organisation qui l’a installée.',
        ],
      },
      {
        heading: 'Droit applicable',
        paragraphs: [
          'Ces pages relèvent du droit du pays de l’exploitant ; les consommateurs conservent la protection du droit de leur propre pays. Le règlement général sur la protection des données de l’UE s’applique aux données personnelles que nous traitons.',
        ],
      },
      {
        heading: 'Signalements et demandes',
        paragraphs: [
          'Les signalements de contenus illicites, les réclamations de propriété intellectuelle et les demandes des autorités passent par la page de contact avec « Legal » dans l’objet. Nous accusons réception et agissons sans retard injustifié.',
        ],
      },
      {
        heading: 'Litiges',
        paragraphs: [
          'Contactez-nous d’abord ; la plupart des problèmes se règlent vite. Les consommateurs de l’UE peuvent aussi recourir à la médiation de la consommation de leur pays.',
        ],
      },
      {
        heading: 'Logiciels libres',
        paragraphs: [
          'La console est construite avec des logiciels libres ; chaque composant garde sa propre licence, indiquée avec le code source.',
        ],
      },
    ],
  },
};
