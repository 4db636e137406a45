import { Hero } from '../components/Hero.tsx';
import { StudioPicker } from '../components/StudioPicker.tsx';
import { StudioShowcase } from '../components/StudioShowcase.tsx';
import { VideoSection } from '../components/VideoSection.tsx';
import { useDocumentTitle } from '../use-document-title.ts';

export function Landing() {
  useDocumentTitle('meta.title');
  return (
    <>
      <Hero />
      <main id="main" tabIndex={-1}>
        <VideoSection />
        <StudioShowcase />
        <StudioPicker />
      </main>
    </>
  );
}
