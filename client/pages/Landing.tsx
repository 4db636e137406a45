import { Hero } from '../components/Hero.tsx';
import { Programme } from '../components/Programme.tsx';
import { HydrateLater } from '../components/HydrateLater.tsx';
import { StudioPicker } from '../components/StudioPicker.tsx';
import { StudioShowcase } from '../components/StudioShowcase.tsx';
import { VideoSection } from '../components/VideoSection.tsx';
import { useDocumentTitle } from '../use-document-title.ts';

export function Landing() {
  useDocumentTitle('meta.title');
  return (
    <>
      <HydrateLater>
        <Hero />
      </HydrateLater>
      <main id="main" tabIndex={-1}>
        <HydrateLater>
          <VideoSection />
        </HydrateLater>
        <HydrateLater>
          <Programme />
        </HydrateLater>
        <HydrateLater>
          <StudioShowcase />
        </HydrateLater>
        <HydrateLater>
          <StudioPicker />
        </HydrateLater>
      </main>
    </>
  );
}
