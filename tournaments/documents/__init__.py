"""What the room prints and downloads: PDFs, printouts, the books' print, reports."""
