from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.i18n import set_language

from room.urls import people_urlpatterns
from room.views import accounts, books, front
from tournaments.urls import api_urlpatterns, display_urlpatterns
from tournaments.views import core, health

urlpatterns = [
    path("", core.home, name="home"),
    path("login/", core.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("language/", set_language, name="set_language"),
    path("health/", health.health, name="health"),
    path("events/", front.front_page, name="front_page"),
    path("lobby/", front.lobby_screen, name="lobby_screen"),
    path("dashboard/", front.room_dashboard, name="room_dashboard"),
    path("dashboard/share/", front.table_share, name="table_share"),
    path("books/", books.night_books, name="night_books"),
    path("books/close/", books.night_close, name="night_close"),
    path("books/correct/", books.night_correct, name="night_correct"),
    path("staff/accounts/", accounts.staff_accounts, name="staff_accounts"),
    path("t/", include("tournaments.urls")),
    path("room/", include("room.urls")),
    *people_urlpatterns,
    *display_urlpatterns,
    *api_urlpatterns,
]

handler400 = "tournaments.views.core.bad_request"
handler403 = "tournaments.views.core.forbidden"
handler404 = "tournaments.views.core.not_found"
handler500 = "tournaments.views.core.server_error"
